package harn

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// enumType is a declared enum.
type enumType struct {
	name     string
	variants map[string]*variantInfo
	order    []string
	value    Value // the type object
}

type variantInfo struct {
	name   string
	fields []string // payload field names ("" when positional)
	unit   bool
}

// member is `Enum.Variant`: a unit variant's value or a payload variant's
// constructor.
func (et *enumType) member(name string) (Value, error) {
	vi, ok := et.variants[name]
	if !ok {
		return Nil, nil
	}
	if vi.unit {
		return Value{k: KindEnum, r: &EnumValue{Enum: et.name, Variant: name}}, nil
	}
	enum, names := et.name, vi.fields
	return Value{k: KindBuiltin, r: &Builtin{Name: enum + "." + name, Fn: func(_ *Call, args []Value) (Value, error) {
		return makeEnum(enum, name, names, args), nil
	}}}, nil
}

func makeEnum(enum, variant string, names []string, args []Value) Value {
	fields := make([]Value, len(args))
	for i, a := range args {
		fields[i] = share(a)
	}
	var ns []string
	for _, n := range names {
		if n != "" {
			ns = names
			break
		}
	}
	return Value{k: KindEnum, r: &EnumValue{Enum: enum, Variant: variant, Fields: fields, Names: ns}}
}

// resultType is the built-in Result enum.
var resultType = &enumType{name: "Result", variants: map[string]*variantInfo{
	"Ok":  {name: "Ok", fields: []string{""}},
	"Err": {name: "Err", fields: []string{""}},
}, order: []string{"Ok", "Err"}}

func init() {
	resultType.value = Value{k: KindObject, r: &Object{TypeName: "enum", Data: resultType}}
}

func (st *structType) present(int) bool { return true }

// sortedFieldOrder is the struct's field indices in name order (display).
func sortedFieldOrder(st *structType) []int {
	idx := make([]int, len(st.fields))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return st.fields[idx[a]] < st.fields[idx[b]] })
	return idx
}

// constructStruct is `Point({x: 1, y: 2})` or positional `Point(1, 2)`.
func (th *thread) constructStruct(st *structType, args []Value) (Value, error) {
	sv := newStruct(st)
	if len(args) == 1 && args[0].k == KindDict {
		d := args[0].r.(*Dict)
		for k, v := range d.m {
			i, ok := st.index[k]
			if !ok {
				return Nil, typeError("struct %s has no field `%s`", st.name, k)
			}
			sv.Fields[i] = share(v)
		}
		return Value{k: KindStruct, r: sv}, nil
	}
	if len(args) > len(st.fields) {
		return Nil, typeError("struct %s has %d fields, got %d values", st.name, len(st.fields), len(args))
	}
	for i, a := range args {
		sv.Fields[i] = share(a)
	}
	return Value{k: KindStruct, r: sv}, nil
}

func (c *compiler) structLit(e *ast.StructLit) evalFn {
	s := c.here(e.Span)
	typ := c.ident(e.Name, false)
	type field struct {
		name string
		val  evalFn
	}
	fields := make([]field, len(e.Fields))
	for i, fi := range e.Fields {
		fields[i] = field{name: fi.Name.Name, val: c.expr(fi.Value)}
	}
	var lastSlots atomic.Pointer[structSlots]
	return func(f *frame) (Value, error) {
		t, err := typ(f)
		if err != nil {
			return Nil, err
		}
		o, ok := t.r.(*Object)
		var st *structType
		if ok {
			st, _ = o.Data.(*structType)
		}
		if st == nil {
			// An undeclared name: build a dict, as upstream does for
			// shapes written with a type name.
			d := NewDict(len(fields))
			for _, fi := range fields {
				v, err := fi.val(f)
				if err != nil {
					return Nil, err
				}
				d.Set(fi.name, v)
			}
			return DictValue(d), nil
		}
		// The field slots of the last struct type built here (a
		// literal names one type but the name may be rebound).
		slots := lastSlots.Load()
		if slots == nil || slots.st != st {
			slots = &structSlots{st: st, index: make([]int, len(fields))}
			for j, fi := range fields {
				i, ok := st.index[fi.name]
				if !ok {
					i = -1
				}
				slots.index[j] = i
			}
			lastSlots.Store(slots)
		}
		sv := newStruct(st)
		for j, fi := range fields {
			v, err := fi.val(f)
			if err != nil {
				return Nil, err
			}
			i := slots.index[j]
			if i < 0 {
				return Nil, s.wrap(typeError("struct %s has no field `%s`", st.name, fi.name))
			}
			sv.Fields[i] = v
		}
		return Value{k: KindStruct, r: sv}, nil
	}
}

// structSlots are the field indices in st of a struct literal's fields
// in the order written (-1: st has no such field).
type structSlots struct {
	st    *structType
	index []int
}

// typeDecl compiles struct, enum, impl, type alias, tool and skill
// declarations. At a module's top level they are created before the top
// level runs.
func (c *compiler) typeDecl(s ast.Stmt) evalFn {
	var mk evalFn
	switch d := s.(type) {
	case *ast.StructDecl:
		if d.Name == nil {
			return nil
		}
		st := &structType{name: d.Name.Name, index: map[string]int{}, mod: c.mod}
		for _, fd := range d.Fields {
			if fd.Name == nil {
				continue
			}
			st.index[fd.Name.Name] = len(st.fields)
			st.fields = append(st.fields, fd.Name.Name)
		}
		v := Value{k: KindObject, r: &Object{TypeName: "struct", Data: st, Members: map[string]Value{}}}
		store := c.bindName(d.Name.Name)
		mk = func(f *frame) (Value, error) { store(f, v); return Nil, nil }
	case *ast.EnumDecl:
		if d.Name == nil {
			return nil
		}
		et := &enumType{name: d.Name.Name, variants: map[string]*variantInfo{}}
		for _, vd := range d.Variants {
			if vd.Name == nil {
				continue
			}
			vi := &variantInfo{name: vd.Name.Name, unit: vd.Fields == nil}
			for _, fd := range vd.Fields {
				n := ""
				if fd.Name != nil {
					n = fd.Name.Name
				} else if nt, ok := fd.Type.(*ast.NamedType); ok && nt.Name != nil && len(nt.Args) == 0 && !isBuiltinTypeName(nt.Name.Name) {
					// `NotFound(msg)`: an untyped payload written as a name.
					n = nt.Name.Name
				}
				vi.fields = append(vi.fields, n)
			}
			et.variants[vi.name] = vi
			et.order = append(et.order, vi.name)
		}
		et.value = Value{k: KindObject, r: &Object{TypeName: "enum", Data: et}}
		c.in.enums[et.name] = et
		store := c.bindName(d.Name.Name)
		mk = func(f *frame) (Value, error) { store(f, et.value); return Nil, nil }
	case *ast.ImplDecl:
		if d.Type == nil {
			return nil
		}
		typeName := d.Type.Name
		type method struct {
			name string
			p    *funcProto
		}
		var ms []method
		for _, fd := range d.Methods {
			if fd.Name == nil {
				continue
			}
			isMethod := len(fd.Params) > 0 && fd.Params[0].Name != nil && fd.Params[0].Name.Name == "self"
			var stmts []ast.Stmt
			if fd.Body != nil {
				stmts = fd.Body.Stmts
			}
			p := c.compileFunction(typeName+"."+fd.Name.Name, fd.Span, fd.Params, stmts, fd.Gen, isMethod)
			ms = append(ms, method{fd.Name.Name, p})
		}
		in := c.in
		mk = func(f *frame) (Value, error) {
			in.mu.Lock()
			defer in.mu.Unlock()
			old := in.impls.Load()
			next := implTable{}
			if old != nil {
				next = maps.Clone(*old)
			}
			tab := maps.Clone(next[typeName])
			if tab == nil {
				tab = make(map[string]*Closure, len(ms))
			}
			for _, m := range ms {
				tab[m.name] = m.p.makeClosure(f)
			}
			next[typeName] = tab
			in.impls.Store(&next)
			return Nil, nil
		}
	case *ast.TypeAlias:
		if d.Name == nil {
			return nil
		}
		c.mod.aliases()[d.Name.Name] = d.Type
		store := c.bindName(d.Name.Name)
		typ := d.Type
		mod := c.mod
		mk = func(f *frame) (Value, error) {
			store(f, schemaOf(mod, typ, 0))
			return Nil, nil
		}
	case *ast.ToolDecl:
		return c.toolDecl(d)
	case *ast.SkillDecl:
		return c.skillDecl(d)
	case *ast.EvalPackDecl:
		return nil
	}
	if mk == nil {
		return nil
	}
	if c.fn.block.top {
		c.fn.prelude = append(c.fn.prelude, mk)
		return nil
	}
	return mk
}

// bindName declares name (or finds the top-level global) and returns its
// store.
func (c *compiler) bindName(name string) func(*frame, Value) {
	if c.fn.block.top {
		return storeLocal(c.declare(name, true))
	}
	if l, ok := c.fn.block.names[name]; ok {
		return storeLocal(l)
	}
	return storeLocal(c.declare(name, true))
}

func isBuiltinTypeName(n string) bool {
	switch n {
	case "int", "float", "string", "bool", "nil", "any", "unknown", "never", "bytes", "dict", "list", "set", "closure", "duration":
		return true
	}
	return false
}

// aliases are the module's type aliases by name (for runtime checks and
// schema_of).
func (m *module) aliases() map[string]ast.Type {
	if m.typeAliases == nil {
		m.typeAliases = map[string]ast.Type{}
	}
	return m.typeAliases
}

// rtType is a parameter annotation lowered for the runtime check.
type rtType struct {
	name    string
	check   func(v Value, path string) error
	accepts func(v Value) (bool, *Value)
}

// runtimeType lowers an annotation to a check, or nil when the
// annotation is not enforced at run time (any, generics, interfaces).
func (c *compiler) runtimeType(t ast.Type) *rtType {
	chk := c.typeCheck(t, 0)
	if chk == nil {
		return nil
	}
	return &rtType{name: typeString(t), check: chk}
}

// typeCheck returns a checker for values of t; nil accepts everything.
// The returned error text follows upstream's runtime messages.
func (c *compiler) typeCheck(t ast.Type, depth int) func(v Value, path string) error {
	if depth > 32 || t == nil {
		return nil
	}
	switch t := t.(type) {
	case *ast.NamedType:
		if t.Name == nil {
			return nil
		}
		name := t.Name.Name
		if k, ok := primitiveKinds[name]; ok {
			return func(v Value, path string) error {
				if kindMatches(k, v) {
					return nil
				}
				return fmt.Errorf("expected %s, got %s", name, v.TypeName())
			}
		}
		switch name {
		case "list":
			if len(t.Args) == 1 {
				return c.listCheck(t.Args[0], depth)
			}
		case "dict":
			if len(t.Args) == 2 {
				return c.dictCheck(t.Args[1], depth)
			}
		}
		if a, ok := c.mod.aliases()[name]; ok {
			return c.typeCheck(a, depth+1)
		}
		return nil
	case *ast.ListType:
		return c.listCheck(t.Element, depth)
	case *ast.OptionalType:
		inner := c.typeCheck(t.Type, depth+1)
		if inner == nil {
			return nil
		}
		return func(v Value, path string) error {
			if v.k == KindNil {
				return nil
			}
			return inner(v, path)
		}
	case *ast.UnionType:
		var checks []func(Value, string) error
		var names []string
		for _, m := range t.Members {
			ch := c.typeCheck(m, depth+1)
			if ch == nil {
				return nil
			}
			checks = append(checks, ch)
			names = append(names, typeString(m))
		}
		want := strings.Join(names, "|")
		return func(v Value, path string) error {
			for _, ch := range checks {
				if ch(v, path) == nil {
					return nil
				}
			}
			return fmt.Errorf("expected %s, got %s", want, v.TypeName())
		}
	case *ast.LiteralType:
		lit := literalTypeValue(t)
		return func(v Value, path string) error {
			if Equal(v, lit) {
				return nil
			}
			return fmt.Errorf("expected %s, got %s", Display(lit), Display(v))
		}
	case *ast.ShapeType:
		type field struct {
			name, typ string
			opt       bool
			check     func(Value, string) error
		}
		var fields []field
		for _, sf := range t.Fields {
			fields = append(fields, field{name: sf.Name, typ: typeString(sf.Type), opt: sf.Optional, check: c.typeCheck(sf.Type, depth+1)})
		}
		return func(v Value, path string) error {
			if v.k != KindDict && v.k != KindStruct {
				return fmt.Errorf("expected dict or struct, got %s", v.TypeName())
			}
			for _, fd := range fields {
				x, _ := getProperty(v, fd.name, true)
				has := x.k != KindNil
				if v.k == KindDict {
					has = v.r.(*Dict).Has(fd.name)
				}
				if !has {
					if fd.opt {
						continue
					}
					return &fieldError{path: path, msg: fmt.Sprintf("missing field '%s' (%s)", fd.name, fd.typ)}
				}
				if fd.check == nil {
					continue
				}
				if err := fd.check(x, path+"."+fd.name); err != nil {
					if fe, ok := err.(*fieldError); ok {
						return fe
					}
					return &fieldError{path: path, msg: fmt.Sprintf("field '%s' %s", fd.name, err.Error())}
				}
			}
			return nil
		}
	}
	return nil
}

// fieldError is a failure inside a shape, reported against the path of
// the shape that holds the field.
type fieldError struct{ path, msg string }

func (e *fieldError) Error() string { return e.msg }

func (c *compiler) listCheck(elem ast.Type, depth int) func(Value, string) error {
	inner := c.typeCheck(elem, depth+1)
	want := typeString(elem)
	return func(v Value, path string) error {
		if v.k != KindList {
			return fmt.Errorf("expected list, got %s", v.TypeName())
		}
		if inner == nil {
			return nil
		}
		for i, x := range v.r.(*List).items {
			if inner(x, path) != nil {
				return fmt.Errorf("element [%d] expected type '%s', got %s", i, want, x.TypeName())
			}
		}
		return nil
	}
}

func (c *compiler) dictCheck(val ast.Type, depth int) func(Value, string) error {
	inner := c.typeCheck(val, depth+1)
	want := typeString(val)
	return func(v Value, path string) error {
		if v.k != KindDict {
			return fmt.Errorf("expected dict, got %s", v.TypeName())
		}
		if inner == nil {
			return nil
		}
		d := v.r.(*Dict)
		for _, k := range d.Keys() {
			if inner(d.m[k], path) != nil {
				return fmt.Errorf("value for key '%s' expected type '%s', got %s", k, want, d.m[k].TypeName())
			}
		}
		return nil
	}
}

var primitiveKinds = map[string]Kind{
	"int": KindInt, "float": KindFloat, "string": KindString, "bool": KindBool,
	"bytes": KindBytes, "set": KindSet, "nil": KindNil, "closure": KindClosure,
}

func kindMatches(k Kind, v Value) bool {
	switch k {
	case KindInt, KindFloat:
		return v.k == KindInt || v.k == KindFloat
	case KindClosure:
		return v.k == KindClosure || v.k == KindBuiltin
	}
	return v.k == k
}

func literalTypeValue(t *ast.LiteralType) Value {
	switch v := t.Value.(type) {
	case *ast.StringLit:
		s, _ := v.Value()
		return Str(s)
	case *ast.IntLit:
		if t.Negative {
			return Int(-v.Value)
		}
		return Int(v.Value)
	}
	return Nil
}

// typeString renders a type annotation the way messages show it.
func typeString(t ast.Type) string {
	switch t := t.(type) {
	case *ast.NamedType:
		if t.Name == nil {
			return "?"
		}
		if len(t.Args) == 0 {
			return t.Name.Name
		}
		args := make([]string, len(t.Args))
		for i, a := range t.Args {
			args[i] = typeString(a)
		}
		return t.Name.Name + "<" + strings.Join(args, ", ") + ">"
	case *ast.ListType:
		return "list<" + typeString(t.Element) + ">"
	case *ast.OptionalType:
		return typeString(t.Type) + "?"
	case *ast.UnionType:
		ms := make([]string, len(t.Members))
		for i, m := range t.Members {
			ms[i] = typeString(m)
		}
		return strings.Join(ms, " | ")
	case *ast.LiteralType:
		v := literalTypeValue(t)
		if v.k == KindString {
			return `"` + v.AsString() + `"`
		}
		return Display(v)
	case *ast.ShapeType:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			opt := ""
			if f.Optional {
				opt = "?"
			}
			fs[i] = f.Name + opt + ": " + typeString(f.Type)
		}
		return "{" + strings.Join(fs, ", ") + "}"
	case *ast.FuncType:
		return "fn"
	}
	return "any"
}

// structFieldNames lists a struct's field names (for reflection builtins).
func structFieldNames(st *structType) []string { return slices.Clone(st.fields) }
