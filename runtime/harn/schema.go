package harn

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// Schemas in Harn's own dialect: {type: "dict"|"list"|"string"|"int"|...,
// properties, required, items, additional_properties, enum, const, union,
// all_of, nullable, default, min/max, min_length/max_length,
// min_items/max_items, pattern}. schema_of(T) lowers a type annotation to
// one; schema_check/parse/expect/is validate against one; converters move
// between it and JSON Schema.

// schemaOf lowers a type annotation (aliases resolved in m) to a schema;
// nil when the type has no runtime schema (generics, iterators).
func schemaOf(m *module, t ast.Type, depth int) Value {
	if depth > 64 || t == nil {
		return Nil
	}
	sch := func(pairs ...any) Value {
		d := NewDict(len(pairs) / 2)
		for i := 0; i+1 < len(pairs); i += 2 {
			d.Set(pairs[i].(string), pairs[i+1].(Value))
		}
		return DictValue(d)
	}
	switch t := t.(type) {
	case *ast.NamedType:
		if t.Name == nil {
			return Nil
		}
		name := t.Name.Name
		switch name {
		case "int", "float", "string", "bool", "list", "dict", "set", "nil", "closure", "bytes":
			if name == "list" && len(t.Args) == 1 {
				return schemaOf(m, &ast.ListType{Element: t.Args[0]}, depth+1)
			}
			if name == "dict" && len(t.Args) == 2 {
				d := NewDict(2)
				d.Set("type", Str("dict"))
				if k, ok := t.Args[0].(*ast.NamedType); ok && k.Name != nil && k.Name.Name == "string" {
					if v := schemaOf(m, t.Args[1], depth+1); v.k != KindNil {
						d.Set("additional_properties", v)
					}
				}
				return DictValue(d)
			}
			return sch("type", Str(name))
		}
		if m != nil {
			if a, ok := m.aliases()[name]; ok {
				return schemaOf(m, a, depth+1)
			}
		}
		return Nil
	case *ast.ShapeType:
		props := NewDict(len(t.Fields))
		var req []Value
		for _, f := range t.Fields {
			fs := schemaOf(m, f.Type, depth+1)
			if fs.k == KindNil {
				return Nil
			}
			props.Set(f.Name, fs)
			if !f.Optional {
				req = append(req, Str(f.Name))
			}
		}
		d := NewDict(3)
		d.Set("type", Str("dict"))
		d.Set("properties", DictValue(props))
		if len(req) > 0 {
			d.Set("required", NewListValue(req))
		}
		return DictValue(d)
	case *ast.ListType:
		d := NewDict(2)
		d.Set("type", Str("list"))
		if it := schemaOf(m, t.Element, depth+1); it.k != KindNil {
			d.Set("items", it)
		}
		return DictValue(d)
	case *ast.OptionalType:
		return schemaOf(m, &ast.UnionType{Members: []ast.Type{t.Type, &ast.NamedType{Name: &ast.Ident{Name: "nil"}}}}, depth+1)
	case *ast.UnionType:
		allStr, allInt := len(t.Members) > 0, len(t.Members) > 0
		var vals []Value
		for _, mem := range t.Members {
			lt, ok := mem.(*ast.LiteralType)
			if !ok {
				allStr, allInt = false, false
				break
			}
			v := literalTypeValue(lt)
			vals = append(vals, v)
			allStr = allStr && v.k == KindString
			allInt = allInt && v.k == KindInt
		}
		if allStr {
			return sch("type", Str("string"), "enum", NewListValue(vals))
		}
		if allInt {
			return sch("type", Str("int"), "enum", NewListValue(vals))
		}
		var branches []Value
		for _, mem := range t.Members {
			if b := schemaOf(m, mem, depth+1); b.k != KindNil {
				branches = append(branches, b)
			}
		}
		if len(branches) == 0 {
			return Nil
		}
		return sch("union", NewListValue(branches))
	case *ast.LiteralType:
		v := literalTypeValue(t)
		if v.k == KindString {
			return sch("type", Str("string"), "const", v)
		}
		return sch("type", Str("int"), "const", v)
	case *ast.FuncType:
		return sch("type", Str("closure"))
	}
	return Nil
}

// validation

type schemaOpts struct{ applyDefaults bool }

func schemaLoc(path string) string {
	if path == "" {
		return "root"
	}
	return path
}

func schemaGet(s *Dict, k string) (Value, bool) {
	if s == nil {
		return Nil, false
	}
	return s.raw(k)
}

func schemaTypeOf(v Value) string {
	switch v.k {
	case KindDict, KindStruct:
		return "dict"
	case KindList:
		return "list"
	}
	return v.TypeName()
}

func typeMatches(v Value, t string) bool {
	switch t {
	case "any", "":
		return true
	case "int", "integer":
		return v.k == KindInt
	case "float", "number":
		return v.k == KindFloat || v.k == KindInt
	case "string":
		return v.k == KindString
	case "bool", "boolean":
		return v.k == KindBool
	case "nil", "null":
		return v.k == KindNil
	case "list", "array":
		return v.k == KindList
	case "dict", "object":
		return v.k == KindDict || v.k == KindStruct
	case "set":
		return v.k == KindSet
	case "closure", "function":
		return v.k == KindClosure || v.k == KindBuiltin
	case "bytes":
		return v.k == KindBytes
	}
	return v.TypeName() == t
}

// validateSchema checks v against schema, returning the value with
// defaults applied and the list of errors.
func validateSchema(v Value, s *Dict, path string, o schemaOpts, depth int) (Value, []string) {
	if depth > 128 {
		return v, []string{"at " + schemaLoc(path) + ": schema nests too deeply"}
	}
	if v.k == KindNil {
		if n, ok := schemaGet(s, "nullable"); ok && n.Truthy() {
			return v, nil
		}
	}
	if c, ok := schemaGet(s, "const"); ok && !Equal(v, c) {
		return v, []string{fmt.Sprintf("at %s: expected constant %s, got %s", schemaLoc(path), Display(c), Display(v))}
	}
	var errs []string
	out := v
	if all, ok := schemaGet(s, "all_of"); ok && all.k == KindList {
		for _, b := range all.r.(*List).items {
			if b.k == KindDict {
				var e []string
				out, e = validateSchema(out, b.r.(*Dict), path, o, depth+1)
				errs = append(errs, e...)
			}
		}
	}
	if u, ok := schemaGet(s, "union"); ok && u.k == KindList {
		matched := false
		for _, b := range u.r.(*List).items {
			if b.k != KindDict {
				continue
			}
			if nv, e := validateSchema(v, b.r.(*Dict), path, o, depth+1); len(e) == 0 {
				out, matched = nv, true
				break
			}
		}
		if !matched {
			errs = append(errs, "at "+schemaLoc(path)+": value did not match any union branch")
		}
	}
	if t, ok := schemaGet(s, "type"); ok && t.k == KindString {
		if !typeMatches(v, t.r.(string)) {
			return out, append(errs, fmt.Sprintf("at %s: expected type '%s', got '%s'", schemaLoc(path), t.r.(string), schemaTypeOf(v)))
		}
	}
	num := func(k string) (float64, bool) {
		x, ok := schemaGet(s, k)
		if !ok {
			return 0, false
		}
		return x.Number()
	}
	enum := func(x Value) {
		if e, ok := schemaGet(s, "enum"); ok && e.k == KindList {
			for _, c := range e.r.(*List).items {
				if Equal(c, x) {
					return
				}
			}
			parts := make([]string, 0, e.r.(*List).Len())
			for _, c := range e.r.(*List).items {
				parts = append(parts, Display(c))
			}
			errs = append(errs, fmt.Sprintf("at %s: value must be one of [%s]", schemaLoc(path), strings.Join(parts, ", ")))
		}
	}
	switch out.k {
	case KindDict, KindStruct:
		nv, e := validateFields(out, s, path, o, depth)
		out = nv
		errs = append(errs, e...)
	case KindList:
		items := out.r.(*List).items
		if n, ok := num("min_items"); ok && float64(len(items)) < n {
			errs = append(errs, fmt.Sprintf("at %s: expected at least %d items, got %d", schemaLoc(path), int64(n), len(items)))
		}
		if n, ok := num("max_items"); ok && float64(len(items)) > n {
			errs = append(errs, fmt.Sprintf("at %s: expected at most %d items, got %d", schemaLoc(path), int64(n), len(items)))
		}
		if is, ok := schemaGet(s, "items"); ok && is.k == KindDict {
			var norm []Value
			for i, x := range items {
				nx, e := validateSchema(x, is.r.(*Dict), path+"["+strconv.Itoa(i)+"]", o, depth+1)
				if len(e) == 0 {
					norm = append(norm, nx)
				} else {
					errs = append(errs, e...)
				}
			}
			out = NewListValue(norm)
		}
	case KindString:
		str := out.r.(string)
		l := float64(len([]rune(str)))
		if n, ok := num("min_length"); ok && l < n {
			errs = append(errs, fmt.Sprintf("at %s: expected length >= %d, got %d", schemaLoc(path), int64(n), int64(l)))
		}
		if n, ok := num("max_length"); ok && l > n {
			errs = append(errs, fmt.Sprintf("at %s: expected length <= %d, got %d", schemaLoc(path), int64(n), int64(l)))
		}
		if p, ok := schemaGet(s, "pattern"); ok && p.k == KindString {
			re, err := CompileRegex(p.r.(string), "")
			if err != nil {
				errs = append(errs, fmt.Sprintf("at %s: invalid regex pattern '%s': %s", schemaLoc(path), p.r.(string), Display(asError(err).Value)))
			} else if !re.MatchString(str) {
				errs = append(errs, fmt.Sprintf("at %s: value does not match pattern '%s'", schemaLoc(path), p.r.(string)))
			}
		}
		enum(out)
	case KindInt, KindFloat:
		x, _ := out.Number()
		if n, ok := num("min"); ok && x < n {
			errs = append(errs, fmt.Sprintf("at %s: expected value >= %s, got %s", schemaLoc(path), fmtNum(n), fmtNum(x)))
		}
		if n, ok := num("max"); ok && x > n {
			errs = append(errs, fmt.Sprintf("at %s: expected value <= %s, got %s", schemaLoc(path), fmtNum(n), fmtNum(x)))
		}
		enum(out)
	case KindBool, KindNil:
		enum(out)
	}
	return out, errs
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func validateFields(v Value, s *Dict, path string, o schemaOpts, depth int) (Value, []string) {
	var errs []string
	fields := NewDict(0)
	switch v.k {
	case KindDict:
		for k, x := range v.r.(*Dict).m {
			fields.Set(k, x)
		}
	case KindStruct:
		sv := v.r.(*StructValue)
		for i, n := range sv.Type.fields {
			fields.Set(n, sv.Fields[i])
		}
	}
	props, _ := schemaGet(s, "properties")
	var pd *Dict
	if props.k == KindDict {
		pd = props.r.(*Dict)
	}
	child := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	if req, ok := schemaGet(s, "required"); ok && req.k == KindList {
		for _, kv := range req.r.(*List).items {
			k := Display(kv)
			if fields.Has(k) {
				continue
			}
			if o.applyDefaults && pd != nil {
				if ps, ok := pd.raw(k); ok && ps.k == KindDict && ps.r.(*Dict).Has("default") {
					continue
				}
			}
			errs = append(errs, fmt.Sprintf("at %s: missing required key '%s'", schemaLoc(path), k))
		}
	}
	merged := fields.clone()
	merged.shared = false
	known := map[string]bool{}
	if pd != nil {
		for _, k := range pd.Keys() {
			known[k] = true
			ps, _ := pd.raw(k)
			if ps.k != KindDict {
				continue
			}
			if x, ok := fields.raw(k); ok {
				nx, e := validateSchema(x, ps.r.(*Dict), child(k), o, depth+1)
				if len(e) == 0 {
					merged.Set(k, nx)
				} else {
					errs = append(errs, e...)
				}
			} else if o.applyDefaults {
				if d, ok := ps.r.(*Dict).raw("default"); ok {
					merged.Set(k, share(d))
				}
			}
		}
	}
	if ap, ok := schemaGet(s, "additional_properties"); ok {
		switch {
		case ap.k == KindBool && !ap.AsBool():
			for _, k := range fields.Keys() {
				if !known[k] {
					errs = append(errs, fmt.Sprintf("at %s: unexpected key '%s'", schemaLoc(path), k))
				}
			}
		case ap.k == KindDict:
			for _, k := range fields.Keys() {
				if known[k] {
					continue
				}
				x, _ := fields.raw(k)
				nx, e := validateSchema(x, ap.r.(*Dict), child(k), o, depth+1)
				if len(e) == 0 {
					merged.Set(k, nx)
				} else {
					errs = append(errs, e...)
				}
			}
		}
	}
	return DictValue(merged), errs
}

// schemaArg accepts a schema dict (aliases evaluate to their schema).
func schemaArg(v Value) (*Dict, error) {
	if v.k == KindDict {
		return v.r.(*Dict), nil
	}
	return nil, typeError("expected a schema dict, got %s", v.TypeName())
}

func schemaErrorValue(errs []string, v Value) Value {
	d := NewDict(3)
	d.Set("value", share(v))
	list := make([]Value, len(errs))
	for i, e := range errs {
		list[i] = Str(e)
	}
	d.Set("errors", NewListValue(list))
	d.Set("message", Str(strings.Join(errs, "; ")))
	return DictValue(d)
}

// Conversion to and from JSON Schema.

var toJSONSchemaKeys = map[string]string{"min_length": "minLength", "max_length": "maxLength", "min": "minimum",
	"max": "maximum", "min_items": "minItems", "max_items": "maxItems", "additional_properties": "additionalProperties",
	"union": "anyOf", "all_of": "allOf"}
var toJSONSchemaTypes = map[string]string{"dict": "object", "int": "integer", "float": "number", "list": "array",
	"bool": "boolean", "nil": "null", "string": "string"}

func convertSchema(v Value, toJSON bool, depth int) Value {
	if depth > 64 {
		return v
	}
	switch v.k {
	case KindList:
		items := v.r.(*List).items
		out := make([]Value, len(items))
		for i, x := range items {
			out[i] = convertSchema(x, toJSON, depth+1)
		}
		return NewListValue(out)
	case KindDict:
	default:
		return v
	}
	d := v.r.(*Dict)
	keys, types := toJSONSchemaKeys, toJSONSchemaTypes
	if !toJSON {
		keys, types = invert(toJSONSchemaKeys), invert(toJSONSchemaTypes)
	}
	out := NewDict(d.Len())
	for _, k := range d.Keys() {
		x := d.m[k]
		nk := k
		if m, ok := keys[k]; ok {
			nk = m
		}
		switch {
		case k == "type" && x.k == KindString:
			if t, ok := types[x.r.(string)]; ok {
				x = Str(t)
			}
		case k == "properties" && x.k == KindDict:
			pd := NewDict(x.r.(*Dict).Len())
			for _, pk := range x.r.(*Dict).Keys() {
				pd.Set(pk, convertSchema(x.r.(*Dict).m[pk], toJSON, depth+1))
			}
			x = DictValue(pd)
		case k == "items" || k == "additional_properties" || k == "additionalProperties" || k == "union" || k == "anyOf" || k == "all_of" || k == "allOf":
			x = convertSchema(x, toJSON, depth+1)
		}
		out.Set(nk, x)
	}
	return DictValue(out)
}

func invert(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

func installSchema(lib *Library) {
	lib.Builtin("schema_of", func(c *Call, args []Value) (Value, error) { return Arg(args, 0), nil })
	check := func(c *Call, args []Value, defaults bool) (Value, []string, error) {
		s, err := schemaArg(Arg(args, 1))
		if err != nil {
			return Nil, nil, err
		}
		v, errs := validateSchema(Arg(args, 0), s, "", schemaOpts{applyDefaults: defaults}, 0)
		return v, errs, nil
	}
	lib.Builtin("schema_is", func(c *Call, args []Value) (Value, error) {
		_, errs, err := check(c, args, false)
		return Bool(err == nil && len(errs) == 0), nil
	})
	lib.Builtin("is_type", func(c *Call, args []Value) (Value, error) {
		_, errs, err := check(c, args, false)
		return Bool(err == nil && len(errs) == 0), nil
	})
	lib.Builtin("schema_check", func(c *Call, args []Value) (Value, error) {
		_, errs, err := check(c, args, false)
		if err != nil {
			return Nil, err
		}
		if len(errs) > 0 {
			return resultErr(schemaErrorValue(errs, Arg(args, 0))), nil
		}
		return resultOkRaw(Arg(args, 0)), nil
	})
	lib.Builtin("schema_parse", func(c *Call, args []Value) (Value, error) {
		v, errs, err := check(c, args, true)
		if err != nil {
			return Nil, err
		}
		if len(errs) > 0 {
			return resultErr(schemaErrorValue(errs, Arg(args, 0))), nil
		}
		return resultOkRaw(v), nil
	})
	lib.Builtin("schema_expect", func(c *Call, args []Value) (Value, error) {
		v, errs, err := check(c, args, Arg(args, 2).Truthy())
		if err != nil {
			return Nil, err
		}
		if len(errs) > 0 {
			return Nil, throwValue(Str("schema_expect: " + strings.Join(errs, "; ")))
		}
		return v, nil
	})
	lib.Builtin("json_validate", func(c *Call, args []Value) (Value, error) {
		s, err := schemaArg(Arg(args, 1))
		if err != nil {
			return Nil, err
		}
		// Upstream's json_validate answers true or throws what failed,
		// as schema_expect does.
		_, errs := validateSchema(Arg(args, 0), s, "", schemaOpts{}, 0)
		if len(errs) > 0 {
			return Nil, throwValue(Str(strings.Join(errs, "; ")))
		}
		return Bool(true), nil
	})
	conv := func(name string, toJSON bool) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) { return convertSchema(Arg(args, 0), toJSON, 0), nil })
	}
	conv("schema_to_json_schema", true)
	conv("schema_to_openapi_schema", true)
	conv("schema_from_json_schema", false)
	conv("schema_from_openapi_schema", false)
	lib.Builtin("schema_extend", func(c *Call, args []Value) (Value, error) { return Add(Arg(args, 0), Arg(args, 1)) })
	lib.Builtin("schema_partial", func(c *Call, args []Value) (Value, error) {
		s, err := schemaArg(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		out := s.clone()
		out.Delete("required")
		return DictValue(out), nil
	})
	pickOmit := func(name string, keep bool) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			s, err := schemaArg(Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			want := map[string]bool{}
			if ks := Arg(args, 1); ks.k == KindList {
				for _, k := range ks.r.(*List).items {
					want[Display(k)] = true
				}
			}
			in := func(k string) bool { return want[k] == keep }
			out := s.clone()
			if p, ok := s.raw("properties"); ok && p.k == KindDict {
				pd := NewDict(0)
				for _, k := range p.r.(*Dict).Keys() {
					if in(k) {
						pd.Set(k, share(p.r.(*Dict).m[k]))
					}
				}
				out.Set("properties", DictValue(pd))
			}
			if r, ok := s.raw("required"); ok && r.k == KindList {
				var req []Value
				for _, k := range r.r.(*List).items {
					if in(Display(k)) {
						req = append(req, k)
					}
				}
				out.Set("required", NewListValue(req))
			}
			return DictValue(out), nil
		})
	}
	pickOmit("schema_pick", true)
	pickOmit("schema_omit", false)
}

var _ = sort.Strings
