package rhai

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Value is a Rhai value: Unit, bool, int64, float64, rune (char), string,
// *Array, *Map, Range or *FnPtr.
type Value = any

// Unit is Rhai's ().
type Unit struct{}

// Array is a Rhai array. Arrays have value semantics: a stored array is
// marked shared, and a write through a binding copies it first.
type Array struct {
	Items  []Value
	shared bool
	// sz caches the recursive data size while szOK holds.
	sz   dsize
	szOK bool
}

// Map is a Rhai object map (keys come out sorted, as from a BTreeMap).
type Map struct {
	m      map[string]Value
	shared bool
	sz     dsize
	szOK   bool
}

// dsize is a recursive data size: array elements, map entries, string
// bytes.
type dsize struct{ arr, mp, str int }

func (d dsize) plus(e dsize) dsize  { return dsize{d.arr + e.arr, d.mp + e.mp, d.str + e.str} }
func (d dsize) minus(e dsize) dsize { return dsize{d.arr - e.arr, d.mp - e.mp, d.str - e.str} }

// Range is an integer range a..b or a..=b.
type Range struct {
	Start, End int64
	Inclusive  bool
	// Step is the stride of range(a, b, step); 0 means 1.
	Step int64
}

// FnPtr is a closure.
type FnPtr struct {
	params   []string
	body     node
	captured []variable
}

func newMap() *Map { return &Map{m: map[string]Value{}} }

// NewMap returns a map holding a copy of m's entries.
func NewMap(m map[string]Value) *Map {
	out := newMap()
	for k, v := range m {
		out.m[k] = v
	}
	return out
}

// Get returns the value under key and whether it exists.
func (m *Map) Get(key string) (Value, bool) { v, ok := m.m[key]; return v, ok }

// Keys returns the keys in sorted order.
func (m *Map) Keys() []string {
	ks := make([]string, 0, len(m.m))
	for k := range m.m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Len returns the number of entries.
func (m *Map) Len() int { return len(m.m) }

// TypeName returns the name type_of gives v.
func TypeName(v Value) string {
	switch v.(type) {
	case Unit, nil:
		return "()"
	case bool:
		return "bool"
	case int64:
		return "i64"
	case float64:
		return "f64"
	case rune:
		return "char"
	case string:
		return "string"
	case *Array:
		return "array"
	case *Map:
		return "map"
	case Range:
		if v.(Range).Inclusive {
			return "range="
		}
		return "range"
	case *FnPtr:
		return "Fn"
	}
	return "unknown"
}

// share marks a container stored in a second place so that the next write
// through either place copies it.
func share(v Value) Value {
	switch t := v.(type) {
	case *Array:
		t.shared = true
	case *Map:
		t.shared = true
	}
	return v
}

// ownArray returns a copy of a shared array whose elements are shared.
// The copy has the same contents, so it keeps the size cache.
func ownArray(a *Array) *Array {
	items := make([]Value, len(a.Items), max(len(a.Items), 4))
	for i, v := range a.Items {
		items[i] = share(v)
	}
	return &Array{Items: items, sz: a.sz, szOK: a.szOK}
}

func ownMap(m *Map) *Map {
	out := &Map{m: make(map[string]Value, len(m.m)), sz: m.sz, szOK: m.szOK}
	for k, v := range m.m {
		out.m[k] = share(v)
	}
	return out
}

// maxValueDepth bounds recursion over nested data in Go. The size limits
// keep real data far shallower; this is a backstop.
const maxValueDepth = 50_000

// sizeOf returns the recursive data size of v, from the containers'
// caches where valid, filling them otherwise; visited counts the entries
// walked to fill caches.
func sizeOf(v Value, visited *int, depth int) dsize {
	switch t := v.(type) {
	case string:
		return dsize{str: len(t)}
	case *Array:
		if t.szOK {
			return t.sz
		}
		if depth > maxValueDepth {
			return dsize{arr: math.MaxInt32}
		}
		d := dsize{arr: len(t.Items)}
		*visited += len(t.Items)
		for _, x := range t.Items {
			switch x.(type) {
			case *Array, *Map, string:
				d = d.plus(sizeOf(x, visited, depth+1))
			}
		}
		t.sz, t.szOK = d, true
		return d
	case *Map:
		if t.szOK {
			return t.sz
		}
		if depth > maxValueDepth {
			return dsize{mp: math.MaxInt32}
		}
		d := dsize{mp: len(t.m)}
		*visited += len(t.m)
		for _, x := range t.m {
			switch x.(type) {
			case *Array, *Map, string:
				d = d.plus(sizeOf(x, visited, depth+1))
			}
		}
		t.sz, t.szOK = d, true
		return d
	}
	return dsize{}
}

// equal is Rhai's ==: same types by value (containers deeply), ints and
// floats numerically, chars against strings; different types are unequal.
func equal(a, b Value, depth int) bool {
	if depth > maxValueDepth {
		return false
	}
	switch x := a.(type) {
	case Unit:
		_, ok := b.(Unit)
		return ok
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
	case float64:
		switch y := b.(type) {
		case int64:
			return x == float64(y)
		case float64:
			return x == y
		}
	case rune:
		switch y := b.(type) {
		case rune:
			return x == y
		case string:
			return string(x) == y
		}
	case string:
		switch y := b.(type) {
		case string:
			return x == y
		case rune:
			return x == string(y)
		}
	case *Array:
		y, ok := b.(*Array)
		if !ok || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !equal(x.Items[i], y.Items[i], depth+1) {
				return false
			}
		}
		return true
	case *Map:
		y, ok := b.(*Map)
		if !ok || len(x.m) != len(y.m) {
			return false
		}
		for k, v := range x.m {
			w, ok := y.m[k]
			if !ok || !equal(v, w, depth+1) {
				return false
			}
		}
		return true
	case Range:
		y, ok := b.(Range)
		return ok && x == y
	}
	return false
}

// ToString renders v as to_string and interpolation do: () is empty,
// strings and chars bare, containers in Rhai's debug form.
func ToString(v Value) string {
	switch t := v.(type) {
	case Unit, nil:
		return ""
	case string:
		return t
	case rune:
		return string(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return formatFloat(t)
	}
	var b strings.Builder
	writeDebug(&b, v, 0)
	return b.String()
}

// Rhai switches to scientific notation outside these magnitudes (f32
// constants widened to f64, as in Rhai's FloatWrapper).
var (
	maxNaturalFloat = float64(float32(10_000_000_000_000.0))
	minNaturalFloat = float64(float32(0.000_000_000_000_1))
)

// formatFloat renders a float as Rhai's Display does (read from Rhai's
// source): 0.0 for zero, Rust's {:e} form outside [1e-13, 1e13], else
// the shortest decimal with ".0" added to integral values.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0:
		return "0.0"
	}
	a := math.Abs(f)
	if a > maxNaturalFloat || a < minNaturalFloat {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		exp = strings.TrimPrefix(exp, "+")
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
		if exp == "" {
			exp = "0"
		}
		if neg {
			exp = "-" + exp
		}
		return mant + "e" + exp
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if f == math.Trunc(f) {
		s += ".0"
	}
	return s
}

// writeDebug writes the debug form used inside containers.
func writeDebug(b *strings.Builder, v Value, depth int) {
	if depth > maxValueDepth || b.Len() > 2*DefaultLimits().MaxStringSize {
		b.WriteString("...")
		return
	}
	switch t := v.(type) {
	case Unit, nil:
		b.WriteString("()")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case float64:
		b.WriteString(formatFloat(t))
	case rune:
		b.WriteString(strconv.QuoteRune(t))
	case string:
		b.WriteString(strconv.Quote(t))
	case *Array:
		b.WriteByte('[')
		for i, x := range t.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeDebug(b, x, depth+1)
		}
		b.WriteByte(']')
	case *Map:
		b.WriteString("#{")
		for i, k := range t.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(": ")
			writeDebug(b, t.m[k], depth+1)
		}
		b.WriteByte('}')
	case Range:
		b.WriteString(strconv.FormatInt(t.Start, 10))
		if t.Inclusive {
			b.WriteString("..=")
		} else {
			b.WriteString("..")
		}
		b.WriteString(strconv.FormatInt(t.End, 10))
	case *FnPtr:
		b.WriteString("Fn(<closure>)")
	}
}

// sizeHint is the top-level element count of a container, else 0.
func sizeHint(v Value) int {
	switch t := v.(type) {
	case *Array:
		return len(t.Items)
	case *Map:
		return len(t.m)
	}
	return 0
}

// ownA and ownM copy a shared container, spending one operation per 32
// elements copied (the next tick reports an exhausted budget).
func (it *interp) ownA(a *Array) *Array {
	it.ops += int64(len(a.Items) >> elemShift)
	return ownArray(a)
}

func (it *interp) ownM(m *Map) *Map {
	it.ops += int64(len(m.m) >> elemShift)
	return ownMap(m)
}

// elemShift sets the price of linear container work: one operation per
// 1<<elemShift elements visited.
const elemShift = 5

// debugSizes makes every size check compare the cached size with a fresh
// count (set by tests and fuzz targets only).
var debugSizes bool

// freshSize counts v's data size ignoring caches.
func freshSize(v Value, depth int) dsize {
	if depth > maxValueDepth {
		return dsize{}
	}
	switch t := v.(type) {
	case string:
		return dsize{str: len(t)}
	case *Array:
		d := dsize{arr: len(t.Items)}
		for _, x := range t.Items {
			d = d.plus(freshSize(x, depth+1))
		}
		return d
	case *Map:
		d := dsize{mp: len(t.m)}
		for _, x := range t.m {
			d = d.plus(freshSize(x, depth+1))
		}
		return d
	}
	return dsize{}
}
