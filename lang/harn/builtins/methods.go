package builtins

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/lang/harn/types"
)

// typeParamModule is the Module of the type parameters of method
// entries, so that no program type is ever mistaken for one.
const typeParamModule = "builtin type parameter"

var (
	typeParamMu sync.Mutex
	typeParams  = map[string]*types.Alias{}
)

// TypeParam returns the type parameter called name (one capital letter)
// of the method entries: an alias of any, so that a consumer that does
// not instantiate sees any, while Instantiate can replace it. In a
// method of a list or iterator T is the element type; of a dict, V the
// value type; U is bound from an argument (a callback's result).
func TypeParam(name string) *types.Alias {
	typeParamMu.Lock()
	defer typeParamMu.Unlock()
	if a := typeParams[name]; a != nil {
		return a
	}
	a := &types.Alias{Name: name, Module: typeParamModule, Target: types.AnyType}
	typeParams[name] = a
	return a
}

// IsTypeParam reports whether t is a method entry's type parameter, and
// its name.
func IsTypeParam(t types.Type) (string, bool) {
	a, ok := t.(*types.Alias)
	if !ok || a.Module != typeParamModule {
		return "", false
	}
	return a.Name, true
}

// LookupMethod returns the method entry that `recv.name(...)` calls on a
// value of the given kind ("string", "list", ...): its own entry, one of
// whose aliases name is, or, for a kind that inherits (a range is lifted
// to an iterator), the parent kind's entry, whose Receiver then differs
// from kind. Nil when the kind has no such method.
func LookupMethod(kind, name string) *Builtin {
	t := get()
	for range 4 {
		if e := t.methods[kind][name]; e != nil {
			if m := t.entry(e).b; m != nil {
				return m
			}
		}
		if kind = t.inherit[kind]; kind == "" {
			return nil
		}
	}
	return nil
}

// LookupProperty returns the property entry `recv.name` reads on a value
// of the given kind, or nil.
func LookupProperty(kind, name string) *Builtin {
	t := get()
	if e := t.props[kind][name]; e != nil {
		return t.entry(e).b
	}
	return nil
}

// Methods returns the method entries listed for kind itself (not
// inherited ones), sorted by name.
func Methods(kind string) []*Builtin {
	t := get()
	return t.members(t.methods[kind])
}

// Properties returns the property entries of kind, sorted by name.
func Properties(kind string) []*Builtin {
	t := get()
	return t.members(t.props[kind])
}

// Kinds returns the receiver kinds that have methods or properties, in
// table order.
func Kinds() []string { return get().kinds }

// Inherits returns the kind whose methods a kind also answers (after
// lifting the receiver), or "".
func Inherits(kind string) string { return get().inherit[kind] }

// members parses the entries of one kind's map and returns them once
// each (not again under an alias), sorted by name.
func (t *table) members(m map[string]*entry) []*Builtin {
	var out []*Builtin
	for name, e := range m {
		if b := t.entry(e).b; b != nil && name == b.Member {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b *Builtin) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Instantiate returns the method's signature with its type parameters
// replaced by bind's answer for each (any when bind returns nil). For a
// property, the signature has no parameters and the property's type as
// its result.
func (b *Builtin) Instantiate(bind func(name string) types.Type) *types.Func {
	return subst(b.sig, bind, 0).(*types.Func)
}

// subst replaces type parameters in t.
func subst(t types.Type, bind func(string) types.Type, depth int) types.Type {
	if t == nil || depth > 32 {
		return t
	}
	if name, ok := IsTypeParam(t); ok {
		if r := bind(name); r != nil {
			return r
		}
		return types.AnyType
	}
	switch u := t.(type) {
	case *types.List:
		return &types.List{Elem: subst(u.Elem, bind, depth+1), Bare: u.Bare}
	case *types.Dict:
		return &types.Dict{Key: subst(u.Key, bind, depth+1), Value: subst(u.Value, bind, depth+1), Bare: u.Bare}
	case *types.Tuple:
		out := &types.Tuple{Elems: make([]types.Type, len(u.Elems))}
		for i, e := range u.Elems {
			out.Elems[i] = subst(e, bind, depth+1)
		}
		return out
	case *types.Record:
		out := *u
		out.Fields = make([]types.Field, len(u.Fields))
		for i, f := range u.Fields {
			f.Type = subst(f.Type, bind, depth+1)
			out.Fields[i] = f
		}
		return &out
	case *types.Union:
		ms := make([]types.Type, len(u.Members))
		for i, m := range u.Members {
			ms[i] = subst(m, bind, depth+1)
		}
		return types.NewUnion(ms...)
	case *types.Func:
		out := &types.Func{Variadic: u.Variadic, Result: subst(u.Result, bind, depth+1), Params: make([]types.Param, len(u.Params))}
		for i, p := range u.Params {
			p.Type = subst(p.Type, bind, depth+1)
			out.Params[i] = p
		}
		return out
	}
	return t
}

// cutTrailer splits a trailing `[word a, b]` off an entry line.
func cutTrailer(s, word string) (string, []string, error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndex(s, "["+word+" ")
	if i < 0 || !strings.HasSuffix(s, "]") {
		return s, nil, nil
	}
	var out []string
	for _, w := range strings.Split(s[i+len(word)+2:len(s)-1], ",") {
		w = strings.TrimSpace(w)
		if !isName(w) {
			return "", nil, fmt.Errorf("bad %s name %q", word, w)
		}
		out = append(out, w)
	}
	return strings.TrimSpace(s[:i]), out, nil
}

// parseMember reads `kind.name(params) -> R` (a method) or
// `kind.name: T` (a property).
func (t *table) parseMember(s string, property bool) (*Builtin, error) {
	if !property {
		b, err := t.parseBuiltin(s, true)
		if err != nil {
			return nil, err
		}
		if b.Namespace == "" {
			return nil, fmt.Errorf("method %s needs `kind.name`", b.Name)
		}
		b.Receiver, b.Namespace = b.Namespace, ""
		return b, nil
	}
	name, typ, ok := strings.Cut(s, ":")
	name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
	kind, member, dotted := strings.Cut(name, ".")
	if !ok || !dotted || !isName(kind) || !isName(member) || typ == "" {
		return nil, fmt.Errorf("property entry needs `property kind.name: Type`")
	}
	pt, err := t.parseType(typ, true)
	if err != nil {
		return nil, fmt.Errorf("property %s: %v", name, err)
	}
	return &Builtin{Name: name, Receiver: kind, Member: member, Property: true, Result: pt, ResultText: typ, sig: &types.Func{Result: pt}}, nil
}

// addMember files a method or property entry of a kind under its names
// (its member name, then its aliases).
func (t *table) addMember(into map[string]map[string]*entry, kind string, names []string, e *entry) error {
	if _, ok := t.methods[kind]; !ok {
		if _, ok := t.props[kind]; !ok {
			t.kinds = append(t.kinds, kind)
		}
	}
	m := into[kind]
	if m == nil {
		m = map[string]*entry{}
		into[kind] = m
	}
	for _, n := range names {
		if m[n] != nil {
			return fmt.Errorf("%s.%s listed twice", kind, n)
		}
	}
	for _, n := range names {
		m[n] = e
	}
	return nil
}
