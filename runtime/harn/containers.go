package harn

import (
	"sort"
)

// List is a Harn list. Programs see lists as values: every "mutation"
// (`xs[i] = v`, `xs.push(v)`) produces a list the old value's other
// owners do not see. The implementation shares storage and copies on
// write: a list marked shared (see share) is copied before an in-place
// update, and push appends in place when the list is the longest view of
// its backing array (see backing), so building a list with
// `xs = xs.push(v)` is amortised O(1) per element.
type List struct {
	items  []Value
	shared bool
	b      *backing
}

// backing records how much of a backing array is in use, so that push can
// append in place only for the list that ends where the array's used part
// ends; any other view copies.
type backing struct{ used int }

// NewList makes a list owning items.
func NewList(items []Value) *List { return &List{items: items} }

// Len is the number of elements.
func (l *List) Len() int { return len(l.items) }

// At returns element i, marked shared since it now has a second owner.
func (l *List) At(i int) Value { return share(l.items[i]) }

// Items returns the elements for reading; callers must not modify them or
// let a container element escape without share.
func (l *List) Items() []Value { return l.items }

// SharedItems returns the elements with every container among them marked
// shared, for callers that hand them out.
func (l *List) SharedItems() []Value {
	for _, v := range l.items {
		share(v)
	}
	return l.items
}

// pushCost is the bytes of the array Push allocates: 0 when the element
// goes into the room left in l's array.
func (l *List) pushCost() int64 {
	n := len(l.items)
	switch {
	case l.inPlace():
		return 0
	case n >= maxListLen:
		return int64(n+1) * valueSize
	}
	return int64(max(8, 2*n)) * valueSize
}

// inPlace reports whether Push appends into l's own array: l ends where
// the used part of its array ends and there is room after it.
func (l *List) inPlace() bool {
	n := len(l.items)
	return l.b != nil && l.b.used == n && n < cap(l.items)
}

// Push returns a list with v appended.
func (l *List) Push(v Value) *List {
	n := len(l.items)
	if l.inPlace() {
		// l ends where the used part of its array ends: append in place.
		// The new list shares l's elements, so its first in-place update
		// copies (writable sees b).
		l.b.used++
		items := l.items[:n+1]
		items[n] = v
		return &List{items: items, b: l.b}
	}
	items := make([]Value, n+1, max(8, 2*n))
	if n >= maxListLen {
		// Keep growing, but no faster than one element at a time: the
		// step budget bounds a loop of pushes.
		items = make([]Value, n+1)
	}
	copy(items, l.items)
	for _, x := range l.items {
		share(x)
	}
	items[n] = v
	return &List{items: items, b: &backing{used: n + 1}}
}

// clone is a shallow copy owning its storage; the elements become shared.
func (l *List) clone() *List {
	items := make([]Value, len(l.items))
	copy(items, l.items)
	for _, x := range items {
		share(x)
	}
	return &List{items: items}
}

// writable returns a list that may be updated in place: l itself when
// nobody else owns it, else a copy.
func (l *List) writable() *List {
	if l.shared || l.b != nil {
		return l.clone()
	}
	return l
}

// Dict is a Harn dict: string keys, iterated in sorted key order, copied on
// write like List.
type Dict struct {
	m      map[string]Value
	keys   []string // sorted; valid when !dirty
	dirty  bool
	shared bool
}

// NewDict makes an empty dict with room for n entries.
func NewDict(n int) *Dict { return &Dict{m: make(map[string]Value, n)} }

// Len is the number of entries.
func (d *Dict) Len() int { return len(d.m) }

// Get returns the value under key, marked shared.
func (d *Dict) Get(key string) (Value, bool) {
	v, ok := d.m[key]
	if ok {
		share(v)
	}
	return v, ok
}

// raw returns the value under key without marking it.
func (d *Dict) raw(key string) (Value, bool) {
	v, ok := d.m[key]
	return v, ok
}

// Set stores a value; the dict must be writable (fresh or writable()).
func (d *Dict) Set(key string, v Value) {
	if _, ok := d.m[key]; !ok {
		d.dirty = true
	}
	d.m[key] = v
}

// Delete removes a key; the dict must be writable.
func (d *Dict) Delete(key string) {
	if _, ok := d.m[key]; ok {
		delete(d.m, key)
		d.dirty = true
	}
}

// Has reports whether key is present.
func (d *Dict) Has(key string) bool { _, ok := d.m[key]; return ok }

// Keys returns the keys in sorted order; callers must not modify it.
func (d *Dict) Keys() []string {
	if d.dirty || len(d.keys) != len(d.m) {
		keys := make([]string, 0, len(d.m))
		for k := range d.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d.keys = keys
		d.dirty = false
	}
	return d.keys
}

func (d *Dict) clone() *Dict {
	m := make(map[string]Value, len(d.m))
	for k, v := range d.m {
		m[k] = share(v)
	}
	c := &Dict{m: m, dirty: true}
	if !d.dirty && len(d.keys) == len(d.m) {
		c.keys = d.keys[:len(d.keys):len(d.keys)]
		c.dirty = false
	}
	return c
}

func (d *Dict) writable() *Dict {
	if d.shared {
		return d.clone()
	}
	return d
}

// Set is a Harn set: unique values (structural equality) in insertion
// order.
type Set struct {
	items []Value
	index map[string]int
}

// NewSet builds a set from values, dropping duplicates.
func NewSet(vals []Value) *Set {
	s := &Set{index: make(map[string]int, len(vals))}
	for _, v := range vals {
		s.add(v)
	}
	return s
}

func (s *Set) add(v Value) bool {
	k := hashKey(v)
	if _, ok := s.index[k]; ok {
		return false
	}
	s.index[k] = len(s.items)
	s.items = append(s.items, share(v))
	return true
}

// Len is the number of members.
func (s *Set) Len() int { return len(s.items) }

// Has reports membership.
func (s *Set) Has(v Value) bool { _, ok := s.index[hashKey(v)]; return ok }

// Items returns the members in insertion order.
func (s *Set) Items() []Value { return s.items }

// Range is `a to b [exclusive]` or range(...): a lazy integer sequence.
type Range struct {
	Start, End int64
	Inclusive  bool
	Step       int64
}

// Len is the number of integers in the range.
func (r *Range) Len() int64 {
	step := r.Step
	if step == 0 {
		step = 1
	}
	end := r.End
	if r.Inclusive {
		if step > 0 {
			end++
		} else {
			end--
		}
	}
	if step > 0 {
		if end <= r.Start {
			return 0
		}
		return (end - r.Start + step - 1) / step
	}
	if end >= r.Start {
		return 0
	}
	return (r.Start - end + (-step) - 1) / (-step)
}

// At is the i-th integer.
func (r *Range) At(i int64) int64 {
	step := r.Step
	if step == 0 {
		step = 1
	}
	return r.Start + i*step
}

// Pair is a two-element value.
type Pair struct{ First, Second Value }

// EnumValue is an enum variant, possibly with payload.
type EnumValue struct {
	Enum, Variant string
	Fields        []Value
	// Names are the payload field names when the variant declared them.
	Names []string
}

// StructValue is a struct instance.
type StructValue struct {
	Type   *structType
	Fields []Value // in declaration order; missing optional fields are nil
	shared bool
}

type structType struct {
	name   string
	fields []string
	index  map[string]int
	mod    *module
}

// FieldNames are the names of the struct's fields, in the order of
// Fields.
func (s *StructValue) FieldNames() []string { return s.Type.fields }

func (s *StructValue) writable() *StructValue {
	if !s.shared {
		return s
	}
	c := newStruct(s.Type)
	copy(c.Fields, s.Fields)
	return c
}

// newStruct makes a struct value of type st with every field nil. A
// struct of up to eight fields is allocated with its fields, in one
// allocation instead of two.
func newStruct(st *structType) *StructValue {
	n := len(st.fields)
	switch {
	case n <= 2:
		b := &struct {
			v StructValue
			f [2]Value
		}{}
		b.v = StructValue{Type: st, Fields: b.f[:n:n]}
		return &b.v
	case n <= 4:
		b := &struct {
			v StructValue
			f [4]Value
		}{}
		b.v = StructValue{Type: st, Fields: b.f[:n:n]}
		return &b.v
	case n <= 8:
		b := &struct {
			v StructValue
			f [8]Value
		}{}
		b.v = StructValue{Type: st, Fields: b.f[:n:n]}
		return &b.v
	}
	return &StructValue{Type: st, Fields: make([]Value, n)}
}

// Object is a host object: a named bag of members and methods (the
// harness and its capability handles, registries). Members are read like
// dict fields; Methods are called with the receiver implied.
type Object struct {
	TypeName string
	Members  map[string]Value
	Methods  map[string]*Builtin
	// Data is the Go state behind the object.
	Data any
}
