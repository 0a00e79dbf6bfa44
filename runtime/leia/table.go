package leia

import (
	"math"
	"unsafe"
)

// Table is Leia's only data structure: an array part for the keys 1..n and
// an insertion-ordered hash part for every other key. Iteration (next,
// pairs, range) visits the array part in order and then the hash part in
// insertion order, so it is deterministic. Deleting a key (assigning nil)
// during iteration is allowed; adding keys during iteration is not
// guaranteed to visit them.
//
// Integral float keys are stored as integers (t[1.0] is t[1]); nil and NaN
// keys are errors raised by the caller (Set reports them).
type Table struct {
	arr   []Value
	slots []slot
	sidx  map[string]int32
	oidx  map[Value]int32
	dead  int // tombstoned slots
	meta  *Table
	// ext is what few tables carry (nil for most): a typed array's
	// element type, or a library table's entries still to be made.
	ext *tableExt
}

// tableExt is the rare part of a table. Tables share one per element
// type; it is never modified after it is made.
type tableExt struct {
	// elem is set for dense typed arrays ([]i64{...}): i32, i64, f32,
	// f64, bool, or a data column's kind.
	elem string
	// fill makes a library table's entries at the table's first use (see
	// newLazyTable).
	fill func(*Table)
}

// elemExts are the shared extensions of the typed arrays' element types.
var elemExts = [...]tableExt{{elem: "i32"}, {elem: "i64"}, {elem: "f32"}, {elem: "f64"}, {elem: "bool"}}

// elemExt returns the extension of typed arrays of element type elem (nil
// for "").
func elemExt(elem string) *tableExt {
	if elem == "" {
		return nil
	}
	for i := range elemExts {
		if elemExts[i].elem == elem {
			return &elemExts[i]
		}
	}
	return &tableExt{elem: elem}
}

// ElemType is the element type of a dense typed array ([]i64{...}): i32,
// i64, f32, f64, bool, or a data column's kind; "" for other tables.
func (t *Table) ElemType() string {
	if t.ext == nil {
		return ""
	}
	return t.ext.elem
}

// newLazyTable returns a library table whose entries fill (made by
// lazyFill, and shared by tables that one function makes) makes at the
// table's first use: the first read or write of a string key, the first
// step of an iteration (next, pairs, Iter) or HashLen. fill may only set
// string keys of the table it is given (no array part, no metatable), so
// reads of integer keys, the length and the metatable need not run it.
// A program therefore sees the table whole whichever way it looks: _G,
// pairs, next, rawget, indexing, the global-read caches.
func newLazyTable(fill *tableExt) *Table {
	return &Table{ext: fill}
}

// lazyFill is the extension newLazyTable's tables share when fill makes
// them all.
func lazyFill(fill func(*Table)) *tableExt { return &tableExt{fill: fill} }

// made runs a library table's pending fill (see newLazyTable).
func (t *Table) made() {
	if t.ext == nil || t.ext.fill == nil {
		return
	}
	fill := t.ext.fill
	t.ext = nil
	fill(t)
}

type slot struct{ key, val Value }

// NewTable returns an empty table with room for narr array entries and
// nhash other entries.
func NewTable(narr, nhash int) *Table {
	t := &Table{}
	if narr > 0 {
		t.arr = make([]Value, 0, narr)
	}
	if nhash > 0 {
		t.slots = make([]slot, 0, nhash)
	}
	return t
}

// NewList returns a table whose array part holds vals (copied).
func NewList(vals ...Value) *Table {
	t := &Table{arr: make([]Value, len(vals))}
	copy(t.arr, vals)
	for len(t.arr) > 0 && t.arr[len(t.arr)-1].k == KindNil {
		t.arr = t.arr[:len(t.arr)-1]
	}
	return t
}

// Meta returns the metatable, or nil.
func (t *Table) Meta() *Table { return t.meta }

// SetMeta sets the metatable.
func (t *Table) SetMeta(m *Table) { t.meta = m }

// Len is the border #t uses without metamethods: the array part's length.
func (t *Table) Len() int { return len(t.arr) }

// normKey turns integral floats into ints. ok is false for NaN.
func normKey(k Value) (Value, bool) {
	if k.k == KindFloat {
		f := k.AsFloat()
		if f != f {
			return k, false
		}
		if f == math.Trunc(f) && f >= -9.223372036854775808e18 && f < 9.223372036854775808e18 {
			return Int(int64(f)), true
		}
	}
	return k, true
}

// Get returns t[k] without metamethods.
func (t *Table) Get(k Value) Value {
	switch k.k {
	case KindString:
		s := k.AsString()
		if v := t.indexedStr(s); v.k != KindNil || t.ext == nil {
			return v
		}
		return t.GetStr(s)
	case KindInt:
		return t.GetInt(int64(k.n))
	case KindNil:
		return Nil
	case KindFloat:
		nk, ok := normKey(k)
		if !ok {
			return Nil
		}
		if nk.k == KindInt {
			return t.GetInt(int64(nk.n))
		}
	}
	if t.oidx == nil {
		return Nil
	}
	if i, ok := t.oidx[k]; ok {
		return t.slots[i].val
	}
	return Nil
}

// GetStr returns t[s] without metamethods.
func (t *Table) GetStr(s string) Value {
	if t == nil || t.sidx == nil {
		if t != nil && t.ext != nil {
			return t.getStrLazy(s)
		}
		return Nil
	}
	if i, ok := t.sidx[s]; ok {
		return t.slots[i].val
	}
	return Nil
}

// indexedStr is GetStr's inlined fast path for the interpreter's field
// reads and method calls: t[s] when the table's index has s, else Nil. A
// caller that gets Nil from a table with a metatable or an extension
// (t.ext, which a library table still to be made has) must ask GetStr
// or index.
func (t *Table) indexedStr(s string) Value {
	if t.sidx != nil {
		if i, ok := t.sidx[s]; ok {
			return t.slots[i].val
		}
	}
	return Nil
}

// getStrLazy is GetStr of a table that may still have to be made.
//
//go:noinline
func (t *Table) getStrLazy(s string) Value {
	if t.ext.fill == nil {
		return Nil
	}
	t.made()
	return t.GetStr(s)
}

// GetInt returns t[i] without metamethods.
func (t *Table) GetInt(i int64) Value {
	if uint64(i-1) < uint64(len(t.arr)) {
		return t.arr[i-1]
	}
	if t.oidx == nil {
		return Nil
	}
	if j, ok := t.oidx[Int(i)]; ok {
		return t.slots[j].val
	}
	return Nil
}

// Set assigns t[k] = v without metamethods. It returns false for a nil or
// NaN key (the caller raises the error).
func (t *Table) Set(k, v Value) bool {
	switch k.k {
	case KindString:
		t.SetStr(k.AsString(), v)
		return true
	case KindInt:
		t.SetInt(int64(k.n), v)
		return true
	case KindNil:
		return false
	case KindFloat:
		nk, ok := normKey(k)
		if !ok {
			return false
		}
		if nk.k == KindInt {
			t.SetInt(int64(nk.n), v)
			return true
		}
	case kindCell:
		return false
	}
	t.setHash(k, v)
	return true
}

// SetStr assigns t[s] = v without metamethods.
func (t *Table) SetStr(s string, v Value) {
	if t.sidx != nil {
		if i, ok := t.sidx[s]; ok {
			t.setSlot(i, v)
			return
		}
	}
	if t.ext != nil && t.ext.fill != nil {
		t.made()
		t.SetStr(s, v)
		return
	}
	if v.k == KindNil {
		return
	}
	if t.sidx == nil {
		// Sized for the entries the table was made for (a library
		// table is filled once with all of them).
		t.sidx = make(map[string]int32, max(4, cap(t.slots)))
	}
	t.sidx[s] = t.addSlot(String(s), v)
}

// SetInt assigns t[i] = v without metamethods.
func (t *Table) SetInt(i int64, v Value) {
	n := int64(len(t.arr))
	if i >= 1 && i <= n {
		t.arr[i-1] = v
		if i == n && v.k == KindNil {
			t.trim()
		}
		return
	}
	if i == n+1 && v.k != KindNil {
		if t.oidx != nil {
			if j, ok := t.oidx[Int(i)]; ok {
				t.setSlot(j, Nil)
			}
		}
		t.arr = append(t.arr, v)
		t.migrate()
		return
	}
	t.setHash(Int(i), v)
}

// Growth returns the bytes that assigning a non-nil value to t[k] would
// allocate at once by moving the array part or the hash slots to a larger
// backing array (append doubles it, and both copies are live while it
// copies); 0 when that assignment reallocates nothing. The interpreter
// charges it to the memory budget before the assignment, so a table grown
// one element at a time meets the budget before its last doubling, not
// after it.
func (t *Table) Growth(k Value) int64 {
	if k.k == KindFloat {
		if nk, ok := normKey(k); ok {
			k = nk
		}
	}
	if k.k == KindInt && int64(k.n) == int64(len(t.arr))+1 {
		if len(t.arr) < cap(t.arr) {
			return 0
		}
		return int64(2*cap(t.arr)+1) * int64(unsafe.Sizeof(Value{}))
	}
	if len(t.slots) < cap(t.slots) || (k.k == KindInt && int64(k.n) >= 1 && int64(k.n) <= int64(len(t.arr))) {
		return 0
	}
	grow := int64(2*cap(t.slots)+1) * int64(unsafe.Sizeof(slot{}))
	if grow < 4096 || t.Get(k).k != KindNil {
		return 0 // small (the heap reading sees it), or an existing key
	}
	return grow
}

// Append adds v at #t+1.
func (t *Table) Append(v Value) { t.SetInt(int64(len(t.arr))+1, v) }

func (t *Table) trim() {
	n := len(t.arr)
	for n > 0 && t.arr[n-1].k == KindNil {
		n--
	}
	clear(t.arr[n:])
	t.arr = t.arr[:n]
}

// migrate moves keys len+1, len+2 ... from the hash part to the array part.
func (t *Table) migrate() {
	if t.oidx == nil || len(t.oidx) == 0 {
		return
	}
	for {
		k := Int(int64(len(t.arr)) + 1)
		j, ok := t.oidx[k]
		if !ok || t.slots[j].val.k == KindNil {
			return
		}
		v := t.slots[j].val
		t.setSlot(j, Nil)
		t.arr = append(t.arr, v)
	}
}

func (t *Table) setHash(k, v Value) {
	if t.oidx != nil {
		if i, ok := t.oidx[k]; ok {
			t.setSlot(i, v)
			return
		}
	}
	if t.ext != nil && t.ext.fill != nil {
		// The library's entries come first in iteration order.
		t.made()
	}
	if v.k == KindNil {
		return
	}
	if t.oidx == nil {
		t.oidx = make(map[Value]int32, 4)
	}
	t.oidx[k] = t.addSlot(k, v)
}

func (t *Table) setSlot(i int32, v Value) {
	s := &t.slots[i]
	if s.val.k == KindNil && v.k != KindNil {
		t.dead--
	} else if s.val.k != KindNil && v.k == KindNil {
		t.dead++
	}
	s.val = v
}

// addSlot appends a new hash entry, compacting tombstones first when they
// make up more than half of a full slot array.
func (t *Table) addSlot(k, v Value) int32 {
	if len(t.slots) == cap(t.slots) && t.dead > 8 && t.dead*2 > len(t.slots) {
		t.compact()
	}
	t.slots = append(t.slots, slot{k, v})
	return int32(len(t.slots) - 1)
}

func (t *Table) compact() {
	live := t.slots[:0:0]
	live = make([]slot, 0, len(t.slots)-t.dead+1)
	for _, s := range t.slots {
		if s.val.k != KindNil {
			live = append(live, s)
		}
	}
	t.slots = live
	t.dead = 0
	if t.sidx != nil {
		clear(t.sidx)
	}
	if t.oidx != nil {
		clear(t.oidx)
	}
	for i, s := range live {
		if s.key.k == KindString {
			t.sidx[s.key.AsString()] = int32(i)
		} else {
			t.oidx[s.key] = int32(i)
		}
	}
}

// HashLen counts the entries outside the array part.
func (t *Table) HashLen() int {
	if t.ext != nil {
		t.made()
	}
	return len(t.slots) - t.dead
}

// Next returns the entry after key in iteration order (key nil starts).
// ok is false when key is not in the table.
func (t *Table) Next(key Value) (k, v Value, ok bool) {
	if t.ext != nil {
		t.made()
	}
	var pos int // position to resume at: 0..len(arr) array, then slots
	switch {
	case key.k == KindNil:
		pos = 0
	default:
		nk, good := normKey(key)
		if !good {
			return Nil, Nil, false
		}
		if nk.k == KindInt && uint64(int64(nk.n)-1) < uint64(len(t.arr)) {
			pos = int(int64(nk.n))
		} else {
			var i int32
			var found bool
			if nk.k == KindString {
				if t.sidx != nil {
					i, found = t.sidx[nk.AsString()]
				}
			} else if t.oidx != nil {
				i, found = t.oidx[nk]
			}
			if !found {
				return Nil, Nil, false
			}
			pos = len(t.arr) + int(i) + 1
		}
	}
	k, v, _ = t.entryAt(pos)
	return k, v, true
}

// entryAt returns the first non-nil entry at iteration position pos or
// later, and the position after it (-1 at the end).
func (t *Table) entryAt(pos int) (Value, Value, int) {
	for ; pos < len(t.arr); pos++ {
		if v := t.arr[pos]; v.k != KindNil {
			return Int(int64(pos) + 1), v, pos + 1
		}
	}
	for i := pos - len(t.arr); i < len(t.slots); i++ {
		if s := t.slots[i]; s.val.k != KindNil {
			return s.key, s.val, len(t.arr) + i + 1
		}
	}
	return Nil, Nil, -1
}

// Iter calls f for each entry in iteration order until f returns false.
// f must not add keys to t.
func (t *Table) Iter(f func(k, v Value) bool) {
	if t.ext != nil {
		t.made()
	}
	for pos := 0; pos >= 0; {
		var k, v Value
		k, v, pos = t.entryAt(pos)
		if pos < 0 || !f(k, v) {
			return
		}
	}
}

// ArrayPart returns the array part (1..#t) for reading; callers must not
// keep it across modifications.
func (t *Table) ArrayPart() []Value { return t.arr }

// Insert puts v at position pos (1-based), shifting later entries up.
func (t *Table) Insert(pos int, v Value) {
	n := len(t.arr)
	if pos == n+1 {
		t.Append(v)
		return
	}
	t.arr = append(t.arr, Nil)
	copy(t.arr[pos:], t.arr[pos-1:n])
	t.arr[pos-1] = v
	if v.k == KindNil {
		t.trim()
	}
	t.migrate()
}

// Remove deletes position pos (1-based) shifting later entries down and
// returns the removed value.
func (t *Table) Remove(pos int) Value {
	n := len(t.arr)
	v := t.arr[pos-1]
	copy(t.arr[pos-1:], t.arr[pos:])
	t.arr[n-1] = Nil
	t.arr = t.arr[:n-1]
	t.trim()
	return v
}
