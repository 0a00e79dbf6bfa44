// Package types is the gradual type system of the Harn checker: the
// representation of Harn types (primitives, literal types, list, dict,
// tuples, closed and open records, unions, optional and nil, aliases,
// function types, capability handles) and the operations the checker's
// rules need on them: normalisation of unions, assignability, nil
// stripping, tagged-union narrowing, field lookup across union members,
// serializability and finiteness checks, and a canonical serialisation
// whose digest identifies a type in the site manifest.
//
// Invariants: types are immutable values once built; every operation is
// deterministic and terminates on recursive aliases. The package knows no
// syntax and does no IO.
package types

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Type is a Harn type. Implementations are the pointer types of this
// package; compare types with Identical, not ==.
type Type interface {
	// String renders the type in Harn's type syntax.
	String() string
	isType()
}

// BasicKind enumerates the types without structure.
type BasicKind uint8

// The basic kinds.
const (
	// Any disables checking in both directions.
	Any BasicKind = iota
	// Unknown accepts anything but must be narrowed before use.
	Unknown
	// Never has no values (the type of a throw, or an exhausted union).
	Never
	Nil
	Bool
	Int
	Float
	String
	Bytes
)

var basicNames = [...]string{"any", "unknown", "never", "nil", "bool", "int", "float", "string", "bytes"}

// Basic is a type without structure.
type Basic struct{ Kind BasicKind }

func (b *Basic) String() string { return basicNames[b.Kind] }
func (*Basic) isType()          {}

// The basic types, shared.
var (
	AnyType     Type = &Basic{Any}
	UnknownType Type = &Basic{Unknown}
	NeverType   Type = &Basic{Never}
	NilType     Type = &Basic{Nil}
	BoolType    Type = &Basic{Bool}
	IntType     Type = &Basic{Int}
	FloatType   Type = &Basic{Float}
	StringType  Type = &Basic{String}
	BytesType   Type = &Basic{Bytes}
)

// Literal is a literal type: one string, integer or boolean value.
type Literal struct {
	// Value is a string, an int64 or a bool.
	Value any
}

func (l *Literal) String() string {
	switch v := l.Value.(type) {
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	}
	return "?"
}
func (*Literal) isType() {}

// StringLit returns the literal type of s.
func StringLit(s string) *Literal { return &Literal{Value: s} }

// IntLit returns the literal type of n.
func IntLit(n int64) *Literal { return &Literal{Value: n} }

// Base returns the basic type a literal widens to.
func (l *Literal) Base() Type {
	switch l.Value.(type) {
	case string:
		return StringType
	case int64:
		return IntType
	}
	return BoolType
}

// List is list<Elem>. Bare marks a plain `list` written without an element
// type (element any), which is not closed for serialisation.
type List struct {
	Elem Type
	Bare bool
}

func (l *List) String() string {
	if l.Bare {
		return "list"
	}
	return "list<" + l.Elem.String() + ">"
}
func (*List) isType() {}

// Dict is dict<Key, Value>. Bare marks a plain `dict`.
type Dict struct {
	Key, Value Type
	Bare       bool
}

func (d *Dict) String() string {
	if d.Bare {
		return "dict"
	}
	return "dict<" + d.Key.String() + ", " + d.Value.String() + ">"
}
func (*Dict) isType() {}

// Tuple is tuple<A, B, ...>.
type Tuple struct{ Elems []Type }

func (t *Tuple) String() string {
	parts := make([]string, len(t.Elems))
	for i, e := range t.Elems {
		parts[i] = e.String()
	}
	return "tuple<" + strings.Join(parts, ", ") + ">"
}
func (*Tuple) isType() {}

// Field is one field of a record shape.
type Field struct {
	Name string
	Type Type
	// Optional fields (`name?: T`) may be absent.
	Optional bool
}

// Record is a shape `{a: T, b?: U}`. Open records admit fields beyond the
// listed ones (an inferred dict of unknown keys, or a shape read from
// untyped data); closed ones do not.
type Record struct {
	Fields []Field
	Open   bool
	// Nominal, when set, marks a record declared by the standard library
	// with an identity of its own (an outcome variant such as
	// "std/predicate.EvaluationOutcome.answered"). A user record with the
	// same fields is not identical to it.
	Nominal string
}

// NewRecord returns a closed record with the fields in the given order.
func NewRecord(fields ...Field) *Record { return &Record{Fields: fields} }

func (r *Record) String() string {
	parts := make([]string, 0, len(r.Fields)+1)
	for _, f := range r.Fields {
		opt := ""
		if f.Optional {
			opt = "?"
		}
		parts = append(parts, f.Name+opt+": "+f.Type.String())
	}
	if r.Open {
		parts = append(parts, "...")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
func (*Record) isType() {}

// Lookup returns the named field.
func (r *Record) Lookup(name string) (Field, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Union is A | B | ...; build it with NewUnion, which keeps the invariant
// that members are normalised: at least two, none a union, none never,
// no two identical, no literal beside its own base type.
type Union struct{ Members []Type }

func (u *Union) String() string {
	parts := make([]string, len(u.Members))
	for i, m := range u.Members {
		s := m.String()
		if _, ok := m.(*Func); ok {
			s = "(" + s + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, " | ")
}
func (*Union) isType() {}

// Param is a function parameter.
type Param struct {
	Name     string
	Type     Type
	Optional bool
}

// Func is fn(params) -> Result.
type Func struct {
	Params   []Param
	Result   Type
	Variadic bool
}

func (f *Func) String() string {
	parts := make([]string, len(f.Params))
	for i, p := range f.Params {
		parts[i] = p.Type.String()
		if f.Variadic && i == len(f.Params)-1 {
			parts[i] = "..." + parts[i]
		}
	}
	return "fn(" + strings.Join(parts, ", ") + ") -> " + f.Result.String()
}
func (*Func) isType() {}

// Alias is a named type (`type Name = T`, a struct, or a std/predicate
// type). Target is resolved lazily through Resolve so that recursive
// aliases can be built; until then it may be nil.
type Alias struct {
	Name string
	// Module is where the alias is declared ("std/predicate", a path).
	Module string
	// Target is the aliased type.
	Target Type
}

func (a *Alias) String() string { return a.Name }
func (*Alias) isType()          {}

// Capability is an opaque host capability handle such as Harness or
// HarnessLlm. Its members are methods and nested capabilities.
type Capability struct {
	Name    string
	Members map[string]Type
}

func (c *Capability) String() string { return c.Name }
func (*Capability) isType()          {}

// Member returns a capability member by name.
func (c *Capability) Member(name string) (Type, bool) {
	t, ok := c.Members[name]
	return t, ok
}

// Optional returns t | nil.
func Optional(t Type) Type { return NewUnion(t, NilType) }

// Unalias follows alias chains to the first non-alias type. A cycle of
// aliases, or an unresolved alias, yields unknown.
func Unalias(t Type) Type {
	seen := 0
	for {
		a, ok := t.(*Alias)
		if !ok {
			return t
		}
		if a.Target == nil || seen > 64 {
			return UnknownType
		}
		t = a.Target
		seen++
	}
}

// IsBasic reports whether t (aliases resolved) is the basic kind k.
func IsBasic(t Type, k BasicKind) bool {
	b, ok := Unalias(t).(*Basic)
	return ok && b.Kind == k
}

// IsGradual reports whether t is any or unknown, about which nothing is
// certain.
func IsGradual(t Type) bool { return IsBasic(t, Any) || IsBasic(t, Unknown) }

// Members returns the union members of t (aliases resolved), or t alone.
func Members(t Type) []Type {
	if u, ok := Unalias(t).(*Union); ok {
		return u.Members
	}
	return []Type{t}
}

// members is Members with t alone in *one, which the caller keeps on its
// stack: the functions of this package that only read the members call it
// for every property read and narrowing, and Members allocated a slice for
// every type that is not a union.
func members(t Type, one *[1]Type) []Type {
	if u, ok := Unalias(t).(*Union); ok {
		return u.Members
	}
	one[0] = t
	return one[:]
}

// NewUnion builds the normalised union of ts. Nested unions are
// flattened, never is dropped, any absorbs everything, duplicates are
// removed, and a literal is dropped beside its own base type. The result
// is never if nothing remains and the lone member if one does. Member
// order is first occurrence, so messages read as the user wrote the type.
func NewUnion(ts ...Type) Type {
	if len(ts) == 1 {
		if u, ok := ts[0].(*Union); ok {
			// Already normalised: keep its identity, which the checker
			// uses to trace a label union back to its question.
			return u
		}
	}
	// Most unions are built of a few members (a field read through a
	// record, an optional): those are normalised in arrays on the stack,
	// and only the result is allocated. Property reads made this function
	// a sixth of the bytes a check of 10,000 files allocated.
	var buf [smallUnion]Type
	flat := buf[:0]
	for _, t := range ts {
		flat = appendFlat(flat, t)
	}
	if len(flat) > smallUnion {
		return newUnionLarge(flat)
	}
	return newUnionSmall(flat)
}

// smallUnion is the number of flattened members up to which NewUnion
// works without allocating.
const smallUnion = 16

// appendFlat appends t to dst, the members of a union in its place.
func appendFlat(dst []Type, t Type) []Type {
	if u, ok := t.(*Union); ok {
		for _, m := range u.Members {
			dst = appendFlat(dst, m)
		}
		return dst
	}
	// An alias of a union stays one named member: the name means
	// something to the user, and Members expands it when needed.
	return append(dst, t)
}

// newUnionSmall is NewUnion of at most smallUnion flattened members, with
// newUnionLarge's rules and result; only the result is allocated.
func newUnionSmall(flat []Type) Type {
	var outBuf, slowBuf [smallUnion]Type
	var keyBuf [smallUnion]memberKey
	out, slow, keys := outBuf[:0], slowBuf[:0], keyBuf[:0]
	identicalToSlow := func(t Type) bool {
		for _, o := range slow {
			if Identical(o, t) {
				return true
			}
		}
		return false
	}
	seen := func(k memberKey) bool {
		for _, o := range keys {
			if o == k {
				return true
			}
		}
		return false
	}
	for _, t := range flat {
		if IsBasic(t, Never) {
			continue
		}
		if IsBasic(t, Any) {
			return AnyType
		}
		if k, ok := keyOf(t); ok {
			if seen(k) || identicalToSlow(t) {
				continue
			}
			keys = append(keys, k)
		} else {
			dup := false
			for _, o := range out {
				if Identical(o, t) {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			slow = append(slow, t)
		}
		out = append(out, t)
	}
	// Drop literals whose base type is also a member.
	n := 0
	var keep [smallUnion]bool
	for i, t := range out {
		if l, ok := t.(*Literal); ok {
			base := l.Base()
			if k, ok := keyOf(base); ok && seen(k) || identicalToSlow(base) {
				continue
			}
		}
		keep[i] = true
		n++
	}
	switch n {
	case 0:
		return NeverType
	case 1:
		for i, t := range out {
			if keep[i] {
				return t
			}
		}
	}
	members := make([]Type, 0, n)
	for i, t := range out {
		if keep[i] {
			members = append(members, t)
		}
	}
	return &Union{Members: members}
}

// memberKey is equal for two types exactly when they are basic types of
// the same kind or literals of the same value (see keyOf).
type memberKey struct {
	// class is 1 for a basic type, 2, 3 and 4 for string, int and bool
	// literals.
	class uint8
	kind  BasicKind
	s     string
	i     int64
}

// keyOf returns t's memberKey; ok is false for every type but basic
// types and literals. It is unionKey without allocating.
func keyOf(t Type) (memberKey, bool) {
	switch t := t.(type) {
	case *Basic:
		return memberKey{class: 1, kind: t.Kind}, true
	case *Literal:
		switch v := t.Value.(type) {
		case string:
			return memberKey{class: 2, s: v}, true
		case int64:
			return memberKey{class: 3, i: v}, true
		case bool:
			if v {
				return memberKey{class: 4, i: 1}, true
			}
			return memberKey{class: 4}, true
		}
	}
	return memberKey{}, false
}

// newUnionLarge is NewUnion of flattened members, any number of them.
// Basics and literals are deduplicated by a key; other members (an alias
// may be identical to a literal) are compared pairwise. A union of
// literals thus costs time linear in its size.
func newUnionLarge(flat []Type) Type {
	var out []Type
	keyed := map[any]bool{}
	var slow []Type
	identicalToSlow := func(t Type) bool {
		return slices.ContainsFunc(slow, func(o Type) bool { return Identical(o, t) })
	}
	for _, t := range flat {
		if IsBasic(t, Never) {
			continue
		}
		if IsBasic(t, Any) {
			return AnyType
		}
		if k, ok := unionKey(t); ok {
			if keyed[k] || identicalToSlow(t) {
				continue
			}
			keyed[k] = true
		} else {
			if slices.ContainsFunc(out, func(o Type) bool { return Identical(o, t) }) {
				continue
			}
			slow = append(slow, t)
		}
		out = append(out, t)
	}
	// Drop literals whose base type is also a member.
	filtered := out[:0:0]
	for _, t := range out {
		if l, ok := t.(*Literal); ok {
			base := l.Base()
			k, _ := unionKey(base)
			if keyed[k] || identicalToSlow(base) {
				continue
			}
		}
		filtered = append(filtered, t)
	}
	switch len(filtered) {
	case 0:
		return NeverType
	case 1:
		return filtered[0]
	}
	return &Union{Members: filtered}
}

// unionKey returns a key equal for two types exactly when they are basic
// types of the same kind or literals of the same value; ok is false for
// every other type.
func unionKey(t Type) (any, bool) {
	switch t := t.(type) {
	case *Basic:
		return t.Kind, true
	case *Literal:
		switch v := t.Value.(type) {
		case string:
			return "s" + v, true
		case int64:
			return v, true
		case bool:
			return v, true
		}
	}
	return nil, false
}

// StripNil removes nil from t; a lone nil stays nil.
func StripNil(t Type) Type {
	var one [1]Type
	ms := members(t, &one)
	if len(ms) == 1 {
		return t
	}
	var buf [smallUnion]Type
	keep := buf[:0]
	for _, m := range ms {
		if !IsBasic(m, Nil) {
			keep = append(keep, m)
		}
	}
	if len(keep) == len(ms) {
		return t
	}
	if len(keep) == 0 {
		return NilType
	}
	return NewUnion(keep...)
}

// Widen replaces each literal member of t with its base type (`"a" | 1 |
// nil` widens to `string | int | nil`); other members are unchanged. It is
// how a value's type is named where the literal would read as a value
// (upstream's "expected int, got string").
func Widen(t Type) Type {
	ms := Members(t)
	if !slices.ContainsFunc(ms, func(m Type) bool { _, ok := m.(*Literal); return ok }) {
		return t
	}
	return WidenMembers(ms)
}

// WidenMembers is the union of the base types of ms (a literal's base,
// other members unchanged).
func WidenMembers(ms []Type) Type {
	out := make([]Type, len(ms))
	for i, m := range ms {
		out[i] = m
		if l, ok := m.(*Literal); ok {
			out[i] = l.Base()
		}
	}
	return NewUnion(out...)
}

// IsOptional reports whether nil is among t's members.
func IsOptional(t Type) bool {
	var one [1]Type
	return slices.ContainsFunc(members(t, &one), func(m Type) bool { return IsBasic(m, Nil) })
}

// Identical reports whether a and b are the same type structurally.
// Aliases are identical to each other by name and module, and are
// otherwise compared by their targets. Union member order does not matter;
// record field order does not matter.
func Identical(a, b Type) bool { return identical(a, b, 0) }

func identical(a, b Type, depth int) bool {
	if a == b {
		return true
	}
	if depth > 64 {
		return false
	}
	if aa, ok := a.(*Alias); ok {
		if ba, ok := b.(*Alias); ok && aa.Name == ba.Name && aa.Module == ba.Module {
			return true
		}
		return identical(Unalias(aa), b, depth+1)
	}
	if _, ok := b.(*Alias); ok {
		return identical(a, Unalias(b), depth+1)
	}
	switch a := a.(type) {
	case *Basic:
		b, ok := b.(*Basic)
		return ok && a.Kind == b.Kind
	case *Literal:
		b, ok := b.(*Literal)
		return ok && a.Value == b.Value
	case *List:
		b, ok := b.(*List)
		return ok && a.Bare == b.Bare && identical(a.Elem, b.Elem, depth+1)
	case *Dict:
		b, ok := b.(*Dict)
		return ok && a.Bare == b.Bare && identical(a.Key, b.Key, depth+1) && identical(a.Value, b.Value, depth+1)
	case *Tuple:
		b, ok := b.(*Tuple)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !identical(a.Elems[i], b.Elems[i], depth+1) {
				return false
			}
		}
		return true
	case *Record:
		b, ok := b.(*Record)
		if !ok || a.Open != b.Open || a.Nominal != b.Nominal || len(a.Fields) != len(b.Fields) {
			return false
		}
		for _, f := range a.Fields {
			g, ok := b.Lookup(f.Name)
			if !ok || f.Optional != g.Optional || !identical(f.Type, g.Type, depth+1) {
				return false
			}
		}
		return true
	case *Union:
		b, ok := b.(*Union)
		if !ok || len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			if !slices.ContainsFunc(b.Members, func(n Type) bool { return identical(m, n, depth+1) }) {
				return false
			}
		}
		return true
	case *Func:
		b, ok := b.(*Func)
		if !ok || len(a.Params) != len(b.Params) || a.Variadic != b.Variadic || !identical(a.Result, b.Result, depth+1) {
			return false
		}
		for i := range a.Params {
			if a.Params[i].Optional != b.Params[i].Optional || !identical(a.Params[i].Type, b.Params[i].Type, depth+1) {
				return false
			}
		}
		return true
	case *Capability:
		b, ok := b.(*Capability)
		return ok && a.Name == b.Name
	}
	return false
}

// fieldOrder sorts record fields by name, for canonical forms.
func fieldOrder(a, b Field) int { return cmp.Compare(a.Name, b.Name) }

// Describe renders t for a message, expanding a top-level alias when it
// helps: "EvaluationPolicy ({backend: ...})" is too long, so aliases print
// by name only.
func Describe(t Type) string {
	if t == nil {
		return "<nil>"
	}
	return fmt.Sprint(t)
}
