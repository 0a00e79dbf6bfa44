package leia

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/harnlang/harn-check/internal/stablesort"
)

// bits (64-bit helpers), container (sets, queues, stacks, heaps) and
// sort (ordering helpers over lists).

func openCollections(in *Interp) {
	i64 := func(a []Value, i int, name string) (int64, error) { return CheckInt(a, i, name) }
	fold := func(name string, init int64, op func(x, y int64) int64) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			if len(a) == 0 {
				return nil, ArgError(0, name, "number expected, got no value")
			}
			r := init
			for i := range a {
				x, err := i64(a, i, name)
				if err != nil {
					return nil, err
				}
				if i == 0 {
					r = x
					continue
				}
				r = op(r, x)
			}
			return t.Ret1(Int(r)), nil
		}
	}
	shiftArgs := func(a []Value, name string) (int64, int64, error) {
		x, err := i64(a, 0, name)
		if err != nil {
			return 0, 0, err
		}
		n, err := i64(a, 1, name)
		if err != nil {
			return 0, 0, err
		}
		if n < 0 {
			return 0, 0, ArgError(1, name, "negative shift count")
		}
		return x, n, nil
	}
	bitArgs := func(a []Value, name string) (int64, int64, error) {
		x, err := i64(a, 0, name)
		if err != nil {
			return 0, 0, err
		}
		n, err := i64(a, 1, name)
		if err != nil {
			return 0, 0, err
		}
		if n < 0 || n > 63 {
			return 0, 0, ArgError(1, name, "bit index out of range")
		}
		return x, n, nil
	}
	newModule(in, "bits", map[string]NativeFunc{
		"and": fold("and", -1, func(x, y int64) int64 { return x & y }),
		"or":  fold("or", 0, func(x, y int64) int64 { return x | y }),
		"xor": fold("xor", 0, func(x, y int64) int64 { return x ^ y }),
		"not": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "not")
			return t.Ret1(Int(^x)), err
		},
		"andNot": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "andNot")
			if err != nil {
				return nil, err
			}
			y, err := i64(a, 1, "andNot")
			return t.Ret1(Int(x &^ y)), err
		},
		"shl": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := shiftArgs(a, "shl")
			if err != nil {
				return nil, err
			}
			if n >= 64 {
				return t.Ret1(Int(0)), nil
			}
			return t.Ret1(Int(int64(uint64(x) << uint(n)))), nil
		},
		"shr": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := shiftArgs(a, "shr")
			if err != nil {
				return nil, err
			}
			if n >= 64 {
				return t.Ret1(Int(0)), nil
			}
			return t.Ret1(Int(int64(uint64(x) >> uint(n)))), nil
		},
		"sar": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := shiftArgs(a, "sar")
			if err != nil {
				return nil, err
			}
			if n > 63 {
				n = 63
			}
			return t.Ret1(Int(x >> uint(n))), nil
		},
		"rotl": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "rotl")
			if err != nil {
				return nil, err
			}
			n, err := i64(a, 1, "rotl")
			return t.Ret1(Int(int64(bits.RotateLeft64(uint64(x), int(n%64))))), err
		},
		"rotr": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "rotr")
			if err != nil {
				return nil, err
			}
			n, err := i64(a, 1, "rotr")
			return t.Ret1(Int(int64(bits.RotateLeft64(uint64(x), -int(n%64))))), err
		},
		"test": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := bitArgs(a, "test")
			return t.Ret1(Bool(x&(1<<uint(n)) != 0)), err
		},
		"set": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := bitArgs(a, "set")
			return t.Ret1(Int(x | 1<<uint(n))), err
		},
		"clear": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := bitArgs(a, "clear")
			return t.Ret1(Int(x &^ (1 << uint(n)))), err
		},
		"toggle": func(t *Thread, a []Value) ([]Value, error) {
			x, n, err := bitArgs(a, "toggle")
			return t.Ret1(Int(x ^ 1<<uint(n))), err
		},
		"ones": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "ones")
			return t.Ret1(Int(int64(bits.OnesCount64(uint64(x))))), err
		},
		"leadingZeros": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "leadingZeros")
			return t.Ret1(Int(int64(bits.LeadingZeros64(uint64(x))))), err
		},
		"trailingZeros": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "trailingZeros")
			return t.Ret1(Int(int64(bits.TrailingZeros64(uint64(x))))), err
		},
		"len": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "len")
			return t.Ret1(Int(int64(bits.Len64(uint64(x))))), err
		},
		"reverse": func(t *Thread, a []Value) ([]Value, error) {
			x, err := i64(a, 0, "reverse")
			return t.Ret1(Int(int64(bits.Reverse64(uint64(x))))), err
		},
	})
	openContainer(in)
	openSort(in)
	openArray(in)
}

// openArray installs array: dense typed lists (array.i64(list) ...), the
// runtime form of []i64{...} literals.
func openArray(in *Interp) {
	conv := map[string]func(Value) (Value, bool){
		"i64":  func(v Value) (Value, bool) { n, ok := toInteger(v); return Int(n), ok },
		"i32":  func(v Value) (Value, bool) { n, ok := toInteger(v); return Int(int64(int32(n))), ok },
		"f64":  func(v Value) (Value, bool) { n, ok := toNumber(v); return Float(n.AsFloat()), ok },
		"f32":  func(v Value) (Value, bool) { n, ok := toNumber(v); return Float(float64(float32(n.AsFloat()))), ok },
		"bool": func(v Value) (Value, bool) { return Bool(v.Truthy()), true },
	}
	funcs := map[string]NativeFunc{
		"len": func(t *Thread, a []Value) ([]Value, error) {
			l, err := CheckTable(a, 0, "len")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(int64(l.Len()))), nil
		},
		"type": func(t *Thread, a []Value) ([]Value, error) {
			l, err := CheckTable(a, 0, "type")
			if err != nil || l.ElemType() == "" {
				return t.Ret1(Nil), err
			}
			return t.Ret1(String(l.ElemType())), nil
		},
	}
	for name, f := range conv {
		name, f := name, f
		funcs[name] = func(t *Thread, a []Value) ([]Value, error) {
			out := NewTable(0, 0)
			out.ext = elemExt(name)
			switch v := Arg(a, 0); v.k {
			case KindTable:
				for i, x := range v.Table().arr {
					c, ok := f(x)
					if !ok {
						return nil, fmt.Errorf("array.%s: element %d is not a %s value", name, i+1, name)
					}
					out.arr = append(out.arr, c)
				}
			case KindInt:
				zero, _ := f(Int(0))
				if v.AsInt() < 0 || v.AsInt() > 1<<26 {
					return nil, ArgError(0, name, "size out of range")
				}
				for i := int64(0); i < v.AsInt(); i++ {
					out.arr = append(out.arr, zero)
				}
			default:
				return nil, typeError(0, name, "table or size", v)
			}
			return t.Ret1(TableValue(out)), nil
		}
	}
	newModule(in, "array", funcs)
}

// set is a container set: a table keyed by the members.
func setOf(t *Thread, v Value, name string) (*Table, error) {
	tb := v.Table()
	if tb == nil {
		return nil, fmt.Errorf("%s: set expected, got %s", name, v.TypeName())
	}
	return tb, nil
}

func openContainer(in *Interp) {
	newSet := func(vals []Value) *Table {
		s := NewTable(0, len(vals))
		for _, v := range vals {
			if v.k != KindNil {
				s.Set(v, True)
			}
		}
		return s
	}
	setSize := func(s *Table) int {
		n := 0
		s.Iter(func(_, _ Value) bool { n++; return true })
		return n
	}
	set2 := func(name string, f func(a, b *Table) *Table) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			x, err := setOf(t, Arg(a, 0), name)
			if err != nil {
				return nil, err
			}
			y, err := setOf(t, Arg(a, 1), name)
			if err != nil {
				return nil, err
			}
			return t.Ret1(TableValue(f(x, y))), nil
		}
	}
	// queues and stacks are lists: {items...}; a deque pops from both ends.
	list := func(v Value, name string) (*Table, error) {
		tb := v.Table()
		if tb == nil {
			return nil, fmt.Errorf("%s: container expected, got %s", name, v.TypeName())
		}
		return tb, nil
	}
	m := newModule(in, "container", map[string]NativeFunc{
		"setNew": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(newSet(a))), nil },
		"setAdd": func(t *Thread, a []Value) ([]Value, error) {
			s, err := setOf(t, Arg(a, 0), "setAdd")
			if err != nil {
				return nil, err
			}
			for _, v := range a[1:] {
				t.rawSet(s, v, True, -1)
			}
			return nil, nil
		},
		"setRemove": func(t *Thread, a []Value) ([]Value, error) {
			s, err := setOf(t, Arg(a, 0), "setRemove")
			if err != nil {
				return nil, err
			}
			for _, v := range a[1:] {
				s.Set(v, Nil)
			}
			return nil, nil
		},
		"setHas": func(t *Thread, a []Value) ([]Value, error) {
			s, err := setOf(t, Arg(a, 0), "setHas")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Bool(s.Get(Arg(a, 1)).k != KindNil)), nil
		},
		"setSize": func(t *Thread, a []Value) ([]Value, error) {
			s, err := setOf(t, Arg(a, 0), "setSize")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(int64(setSize(s)))), nil
		},
		"setItems": func(t *Thread, a []Value) ([]Value, error) {
			s, err := setOf(t, Arg(a, 0), "setItems")
			if err != nil {
				return nil, err
			}
			out := NewTable(setSize(s), 0)
			s.Iter(func(k, _ Value) bool { out.Append(k); return true })
			return t.Ret1(TableValue(out)), nil
		},
		"setUnion": set2("setUnion", func(x, y *Table) *Table {
			r := NewTable(0, 8)
			x.Iter(func(k, _ Value) bool { r.Set(k, True); return true })
			y.Iter(func(k, _ Value) bool { r.Set(k, True); return true })
			return r
		}),
		"setIntersect": set2("setIntersect", func(x, y *Table) *Table {
			r := NewTable(0, 8)
			x.Iter(func(k, _ Value) bool {
				if y.Get(k).k != KindNil {
					r.Set(k, True)
				}
				return true
			})
			return r
		}),
		"setDifference": set2("setDifference", func(x, y *Table) *Table {
			r := NewTable(0, 8)
			x.Iter(func(k, _ Value) bool {
				if y.Get(k).k == KindNil {
					r.Set(k, True)
				}
				return true
			})
			return r
		}),
		"queueNew": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(NewList(a...))), nil },
		"queuePush": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queuePush")
			if err != nil {
				return nil, err
			}
			q.Append(Arg(a, 1))
			return nil, nil
		},
		"queuePushFront": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queuePushFront")
			if err != nil {
				return nil, err
			}
			q.Insert(1, Arg(a, 1))
			return nil, nil
		},
		"queuePop": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queuePop")
			if err != nil {
				return nil, err
			}
			if q.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(q.Remove(1)), nil
		},
		"queuePopBack": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queuePopBack")
			if err != nil {
				return nil, err
			}
			if q.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(q.Remove(q.Len())), nil
		},
		"queuePeek": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queuePeek")
			if err != nil {
				return nil, err
			}
			return t.Ret1(q.GetInt(1)), nil
		},
		"queueSize": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queueSize")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(int64(q.Len()))), nil
		},
		"queueEmpty": func(t *Thread, a []Value) ([]Value, error) {
			q, err := list(Arg(a, 0), "queueEmpty")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Bool(q.Len() == 0)), nil
		},
		"stackNew": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(TableValue(NewList(a...))), nil },
		"stackPush": func(t *Thread, a []Value) ([]Value, error) {
			s, err := list(Arg(a, 0), "stackPush")
			if err != nil {
				return nil, err
			}
			s.Append(Arg(a, 1))
			return nil, nil
		},
		"stackPop": func(t *Thread, a []Value) ([]Value, error) {
			s, err := list(Arg(a, 0), "stackPop")
			if err != nil {
				return nil, err
			}
			if s.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(s.Remove(s.Len())), nil
		},
		"stackPeek": func(t *Thread, a []Value) ([]Value, error) {
			s, err := list(Arg(a, 0), "stackPeek")
			if err != nil {
				return nil, err
			}
			return t.Ret1(s.GetInt(int64(s.Len()))), nil
		},
		"stackSize": func(t *Thread, a []Value) ([]Value, error) {
			s, err := list(Arg(a, 0), "stackSize")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Int(int64(s.Len()))), nil
		},
		"stackEmpty": func(t *Thread, a []Value) ([]Value, error) {
			s, err := list(Arg(a, 0), "stackEmpty")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Bool(s.Len() == 0)), nil
		},
		"heapNew": heapNew,
	})
	m.SetStr("setCount", m.GetStr("setSize"))
}

// heapNew makes a binary min-heap object (h.push, h.pop, h.peek, h.size,
// h.empty) ordered by < or by an optional less(a, b) function.
func heapNew(t *Thread, a []Value) ([]Value, error) {
	less := Arg(a, 0)
	var items []Value
	lt := func(t *Thread, x, y Value) bool {
		if less.IsFunction() {
			return t.Call1(less, x, y).Truthy()
		}
		return t.less(x, y, -1)
	}
	h := NewTable(0, 6)
	h.SetStr("push", NewNative("push", func(t *Thread, a []Value) ([]Value, error) {
		v := Arg(a, 0)
		items = append(items, v)
		for i := len(items) - 1; i > 0; {
			p := (i - 1) / 2
			if !lt(t, items[i], items[p]) {
				break
			}
			items[i], items[p] = items[p], items[i]
			i = p
		}
		return nil, nil
	}))
	h.SetStr("pop", NewNative("pop", func(t *Thread, a []Value) ([]Value, error) {
		if len(items) == 0 {
			return t.Ret1(Nil), nil
		}
		top := items[0]
		n := len(items) - 1
		items[0] = items[n]
		items = items[:n]
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < n && lt(t, items[l], items[m]) {
				m = l
			}
			if r < n && lt(t, items[r], items[m]) {
				m = r
			}
			if m == i {
				break
			}
			items[i], items[m] = items[m], items[i]
			i = m
		}
		return t.Ret1(top), nil
	}))
	h.SetStr("peek", NewNative("peek", func(t *Thread, a []Value) ([]Value, error) {
		if len(items) == 0 {
			return t.Ret1(Nil), nil
		}
		return t.Ret1(items[0]), nil
	}))
	h.SetStr("size", NewNative("size", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(int64(len(items)))), nil }))
	h.SetStr("empty", NewNative("empty", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Bool(len(items) == 0)), nil }))
	return t.Ret1(TableValue(h)), nil
}

func openSort(in *Interp) {
	lessOf := func(t *Thread) func(x, y Value) bool {
		return func(x, y Value) bool {
			if x.k == KindInt && y.k == KindInt {
				return int64(x.n) < int64(y.n)
			}
			return t.less(x, y, -1)
		}
	}
	listArg := func(a []Value, name string) (*Table, error) { return CheckTable(a, 0, name) }
	newModule(in, "sort", map[string]NativeFunc{
		"asc": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "asc")
			if err != nil {
				return nil, err
			}
			t.sortNatural(l.arr, false)
			return t.Ret1(a[0]), nil
		},
		"desc": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "desc")
			if err != nil {
				return nil, err
			}
			t.sortNatural(l.arr, true)
			return t.Ret1(a[0]), nil
		},
		"by": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "by")
			if err != nil {
				return nil, err
			}
			f, err := CheckFunction(a, 1, "by")
			if err != nil {
				return nil, err
			}
			t.sortWith(l.arr, f)
			return t.Ret1(a[0]), nil
		},
		"byKey": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "byKey")
			if err != nil {
				return nil, err
			}
			f, err := CheckFunction(a, 1, "byKey")
			if err != nil {
				return nil, err
			}
			keys := make([]Value, len(l.arr))
			for i, v := range l.arr {
				keys[i] = t.Call1(f, v)
			}
			idx := make([]int, len(l.arr))
			for i := range idx {
				idx[i] = i
			}
			less := lessOf(t)
			t.chargeSort(len(idx))
			_ = stablesort.Sort(idx, func(i, j int) (bool, error) { return less(keys[i], keys[j]), nil })
			vals := make([]Value, len(l.arr))
			for i, k := range idx {
				vals[i] = l.arr[k]
			}
			copy(l.arr, vals)
			return t.Ret1(a[0]), nil
		},
		"isSorted": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "isSorted")
			if err != nil {
				return nil, err
			}
			less := lessOf(t)
			for i := 1; i < len(l.arr); i++ {
				if less(l.arr[i], l.arr[i-1]) {
					return t.Ret1(False), nil
				}
			}
			return t.Ret1(True), nil
		},
		"bsearch": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "bsearch")
			if err != nil {
				return nil, err
			}
			x := Arg(a, 1)
			less := lessOf(t)
			i := sort.Search(len(l.arr), func(i int) bool { return !less(l.arr[i], x) })
			if i < len(l.arr) && t.equal(l.arr[i], x) {
				return t.Ret1(Int(int64(i + 1))), nil
			}
			return t.Ret1(Nil), nil
		},
		"unique": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "unique")
			if err != nil {
				return nil, err
			}
			out := NewTable(len(l.arr), 0)
			seen := NewTable(0, len(l.arr))
			for _, v := range l.arr {
				if seen.Get(v).k == KindNil {
					seen.Set(v, True)
					out.Append(v)
				}
			}
			return t.Ret1(TableValue(out)), nil
		},
		"reverse": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "reverse")
			if err != nil {
				return nil, err
			}
			for i, j := 0, len(l.arr)-1; i < j; i, j = i+1, j-1 {
				l.arr[i], l.arr[j] = l.arr[j], l.arr[i]
			}
			return t.Ret1(a[0]), nil
		},
		"min": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "min")
			if err != nil || len(l.arr) == 0 {
				return t.Ret1(Nil), err
			}
			less := lessOf(t)
			key := func(v Value) Value { return v }
			if f := Arg(a, 1); f.IsFunction() {
				key = func(v Value) Value { return t.Call1(f, v) }
			}
			m, mk := l.arr[0], key(l.arr[0])
			for _, v := range l.arr[1:] {
				vk := key(v)
				if less(vk, mk) {
					m, mk = v, vk
				}
			}
			return t.Ret1(m), nil
		},
		"max": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "max")
			if err != nil || len(l.arr) == 0 {
				return t.Ret1(Nil), err
			}
			less := lessOf(t)
			key := func(v Value) Value { return v }
			if f := Arg(a, 1); f.IsFunction() {
				key = func(v Value) Value { return t.Call1(f, v) }
			}
			m, mk := l.arr[0], key(l.arr[0])
			for _, v := range l.arr[1:] {
				vk := key(v)
				if less(mk, vk) {
					m, mk = v, vk
				}
			}
			return t.Ret1(m), nil
		},
		"partition": func(t *Thread, a []Value) ([]Value, error) {
			l, err := listArg(a, "partition")
			if err != nil {
				return nil, err
			}
			f, err := CheckFunction(a, 1, "partition")
			if err != nil {
				return nil, err
			}
			yes, no := NewTable(0, 0), NewTable(0, 0)
			for _, v := range l.arr {
				if t.Call1(f, v).Truthy() {
					yes.Append(v)
				} else {
					no.Append(v)
				}
			}
			return t.Ret2(TableValue(yes), TableValue(no)), nil
		},
	})
}
