package types

import (
	"slices"
	"strings"
)

// Assignable reports whether a value of type v may be used where t is
// expected, under Harn's gradual rules: any is compatible both ways;
// anything flows into unknown; records are structural with width
// subtyping (extra fields are allowed); optional fields may be absent; int
// flows into float; literals widen to their base; a base-typed value may
// flow into a literal type (the checker reports only what is certain); a
// shape fits dict<string, V> when every field fits V.
func Assignable(v, t Type) bool { return assignable(v, t, 0) }

func assignable(v, t Type, depth int) bool {
	if depth > 64 {
		return true // recursive types: assume compatible rather than loop
	}
	if IsBasic(v, Any) || IsBasic(t, Any) || IsBasic(t, Unknown) || IsBasic(v, Never) {
		return true
	}
	if Identical(v, t) {
		return true
	}
	// A union source must fit member by member.
	if u, ok := Unalias(v).(*Union); ok {
		for _, m := range u.Members {
			if !assignable(m, t, depth+1) {
				return false
			}
		}
		return true
	}
	// A union target accepts a source fitting any member.
	if u, ok := Unalias(t).(*Union); ok {
		for _, m := range u.Members {
			if assignable(v, m, depth+1) {
				return true
			}
		}
		// A base-typed value may hold one of the literals.
		if base, ok := Unalias(v).(*Basic); ok {
			for _, m := range u.Members {
				if l, ok := m.(*Literal); ok && Identical(l.Base(), base) {
					return true
				}
			}
		}
		return false
	}
	if IsBasic(v, Unknown) {
		return false
	}
	vu, tu := Unalias(v), Unalias(t)
	switch t := tu.(type) {
	case *Basic:
		switch vv := vu.(type) {
		case *Basic:
			return vv.Kind == t.Kind || (vv.Kind == Int && t.Kind == Float)
		case *Literal:
			return assignable(vv.Base(), t, depth+1)
		}
		return false
	case *Literal:
		if b, ok := vu.(*Basic); ok {
			// Widened value into a literal: not provably wrong.
			return Identical(b, t.Base())
		}
		return false
	case *List:
		if t.Bare {
			_, ok := vu.(*List)
			_, isTuple := vu.(*Tuple)
			return ok || isTuple
		}
		switch vv := vu.(type) {
		case *List:
			return vv.Bare || assignable(vv.Elem, t.Elem, depth+1)
		case *Tuple:
			for _, e := range vv.Elems {
				if !assignable(e, t.Elem, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	case *Dict:
		switch vv := vu.(type) {
		case *Dict:
			return t.Bare || vv.Bare || (assignable(vv.Key, t.Key, depth+1) && assignable(vv.Value, t.Value, depth+1))
		case *Record:
			if t.Bare {
				return true
			}
			if !assignable(StringType, t.Key, depth+1) {
				return false
			}
			for _, f := range vv.Fields {
				if !assignable(f.Type, t.Value, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	case *Tuple:
		vv, ok := vu.(*Tuple)
		if !ok || len(vv.Elems) != len(t.Elems) {
			return false
		}
		for i := range t.Elems {
			if !assignable(vv.Elems[i], t.Elems[i], depth+1) {
				return false
			}
		}
		return true
	case *Record:
		switch vv := vu.(type) {
		case *Record:
			for _, f := range t.Fields {
				g, ok := vv.Lookup(f.Name)
				if !ok {
					if f.Optional || vv.Open {
						continue
					}
					return false
				}
				if g.Optional && !f.Optional {
					return false
				}
				if !assignable(g.Type, f.Type, depth+1) {
					return false
				}
			}
			return true
		case *Dict:
			// A dict of unknown keys might hold the fields; not certain.
			return vv.Bare || IsGradual(vv.Value)
		}
		return false
	case *Func:
		vv, ok := vu.(*Func)
		if !ok {
			return false
		}
		if !assignable(vv.Result, t.Result, depth+1) {
			return false
		}
		for i, p := range t.Params {
			if i >= len(vv.Params) {
				break
			}
			// Parameters are contravariant.
			if !assignable(p.Type, vv.Params[i].Type, depth+1) {
				return false
			}
		}
		return true
	case *Capability:
		vv, ok := vu.(*Capability)
		return ok && (vv.Name == t.Name || capabilityBase(vv.Name) == t.Name || capabilityBase(t.Name) == vv.Name)
	}
	return false
}

// capabilityBase is a handle's name without type arguments: a
// Stream<int> is a Stream.
func capabilityBase(name string) string {
	if i := strings.IndexByte(name, '<'); i > 0 {
		return name[:i]
	}
	return name
}

// AssignableInvariant is Assignable with the element types of lists and
// dicts held invariantly, as a value some other binding already holds
// must be: a list<int> is not a list<float>, since writing a float
// through the second would break the first. Gradual element types and
// bare containers are compatible with anything.
func AssignableInvariant(v, t Type) bool { return invariant(v, t, 0) }

func invariant(v, t Type, depth int) bool {
	if depth > 32 {
		return true
	}
	if !assignable(v, t, depth) {
		return false
	}
	same := func(a, b Type) bool {
		if IsGradual(a) || IsGradual(b) {
			return true
		}
		return assignable(a, b, depth+1) && assignable(b, a, depth+1) && invariant(a, b, depth+1)
	}
	switch tt := Unalias(t).(type) {
	case *List:
		if vv, ok := Unalias(v).(*List); ok && !tt.Bare && !vv.Bare {
			return same(vv.Elem, tt.Elem)
		}
	case *Dict:
		if vv, ok := Unalias(v).(*Dict); ok && !tt.Bare && !vv.Bare {
			return same(vv.Key, tt.Key) && same(vv.Value, tt.Value)
		}
	}
	return true
}

// FieldPresence says where a field exists across the members of a type.
type FieldPresence uint8

// The presences.
const (
	// FieldAbsent: no member has the field.
	FieldAbsent FieldPresence = iota
	// FieldSome: some members have it, others do not (reading it needs
	// narrowing first).
	FieldSome
	// FieldAll: every member has it.
	FieldAll
	// FieldUnknown: the type is gradual or open; nothing certain.
	FieldUnknown
)

// FieldOf returns the type of a property read t.name and where the field
// is present. For a union, the result is the union of the field's types in
// the members that have it. nil members are ignored when ignoreNil is set
// (optional chaining).
func FieldOf(t Type, name string, ignoreNil bool) (Type, FieldPresence) {
	var buf [smallUnion]Type
	found := buf[:0]
	have, lack := 0, 0
	unknown := false
	var one [1]Type
	for _, m := range members(t, &one) {
		if ignoreNil && IsBasic(m, Nil) {
			continue
		}
		switch mu := Unalias(m).(type) {
		case *Record:
			if f, ok := mu.Lookup(name); ok {
				ft := f.Type
				if f.Optional {
					ft = Optional(ft)
				}
				found = append(found, ft)
				have++
			} else if mu.Open {
				unknown = true
			} else {
				lack++
			}
		case *Dict:
			found = append(found, mu.Value)
			if mu.Bare {
				unknown = true
			}
			have++
		case *Basic:
			if mu.Kind == Any || mu.Kind == Unknown {
				unknown = true
			} else {
				lack++
			}
		case *Capability:
			if mt, ok := mu.Member(name); ok {
				found = append(found, mt)
				have++
			} else {
				lack++
			}
		default:
			lack++
		}
	}
	switch {
	case unknown:
		if len(found) > 0 {
			return NewUnion(append(found, AnyType)...), FieldUnknown
		}
		return AnyType, FieldUnknown
	case have == 0:
		return NeverType, FieldAbsent
	case lack > 0:
		return NewUnion(found...), FieldSome
	}
	return NewUnion(found...), FieldAll
}

// Narrow keeps the members of t whose field name can hold the literal
// value lit (a tagged-union test `t.name == lit`). Members without the
// field are dropped; gradual members are kept.
func Narrow(t Type, name string, lit *Literal) Type {
	return filterMembers(t, func(m Type) bool {
		ft, p := FieldOf(m, name, false)
		if p == FieldUnknown {
			return true
		}
		if p != FieldAll {
			return false
		}
		return canHold(ft, lit)
	})
}

// Exclude keeps the members of t whose field name can hold a value other
// than lit (the else branch of `t.name == lit`, or `t.name != lit`).
func Exclude(t Type, name string, lit *Literal) Type {
	return filterMembers(t, func(m Type) bool {
		ft, p := FieldOf(m, name, false)
		if p != FieldAll {
			return true
		}
		// A member whose tag is exactly lit cannot take the other branch.
		if l, ok := Unalias(ft).(*Literal); ok && l.Value == lit.Value {
			return false
		}
		return true
	})
}

// canHold reports whether a value of type t may equal the literal.
func canHold(t Type, lit *Literal) bool {
	var one [1]Type
	for _, m := range members(t, &one) {
		switch mu := Unalias(m).(type) {
		case *Literal:
			if mu.Value == lit.Value {
				return true
			}
		case *Basic:
			if mu.Kind == Any || mu.Kind == Unknown || Identical(mu, lit.Base()) {
				return true
			}
		}
	}
	return false
}

func filterMembers(t Type, keep func(Type) bool) Type {
	var one [1]Type
	ms := members(t, &one)
	if len(ms) == 1 {
		if keep(ms[0]) {
			return t
		}
		return NeverType
	}
	var buf [smallUnion]Type
	out := buf[:0]
	for _, m := range ms {
		if keep(m) {
			out = append(out, m)
		}
	}
	if len(out) == len(ms) {
		return t
	}
	return NewUnion(out...)
}

// Literals returns the literal values of t when t is a union of literals
// (or one literal), and false otherwise. Exhaustiveness checks use it.
func Literals(t Type) ([]*Literal, bool) {
	var out []*Literal
	for _, m := range Members(t) {
		l, ok := Unalias(m).(*Literal)
		if !ok {
			return nil, false
		}
		out = append(out, l)
	}
	return out, true
}

// TagValues returns, for a tagged union over field name, the tag literal
// of each member in order; false when t is not such a union (some member
// lacks the field or its type is not one literal).
func TagValues(t Type, name string) ([]*Literal, bool) {
	var out []*Literal
	for _, m := range Members(t) {
		if IsBasic(m, Nil) {
			continue
		}
		ft, p := FieldOf(m, name, false)
		if p != FieldAll {
			return nil, false
		}
		l, ok := Unalias(ft).(*Literal)
		if !ok {
			return nil, false
		}
		if !slices.ContainsFunc(out, func(o *Literal) bool { return o.Value == l.Value }) {
			out = append(out, l)
		}
	}
	return out, len(out) > 0
}
