package harn

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/internal/stablesort"
)

// Sorting. Harn's sort is stable (upstream sorts with Rust's stable
// sort_by), so equal elements keep their order. Lists of only ints or only
// strings have no equal elements that could be told apart, so they take
// an unstable in-place sort on unboxed keys; everything else, and every
// user comparator, goes through the merge sort of internal/stablesort,
// which makes the fewest comparisons.

// sortValues returns items sorted by the language's ordering, or by fn
// when it is callable: fn(a, b) returns a bool (a before b) or a number
// (negative when a sorts first). items is not modified.
func (th *thread) sortValues(items []Value, fn Value) ([]Value, error) {
	out := shareAll(slices.Clone(items))
	if err := th.chargeSort(len(out)); err != nil {
		return nil, err
	}
	if fn.Callable() {
		return out, stablesort.Sort(out, th.comparator(fn))
	}
	sortNatural(out)
	return out, nil
}

// sortNatural sorts vs by Compare, stably; values Compare cannot order
// compare equal and keep their places relative to each other.
func sortNatural(vs []Value) {
	switch homogeneous(vs) {
	case KindInt:
		keys := make([]int64, len(vs))
		for i, v := range vs {
			keys[i] = int64(v.n)
		}
		slices.Sort(keys)
		for i, k := range keys {
			vs[i] = Int(k)
		}
	case KindString:
		slices.SortFunc(vs, func(a, b Value) int { return strings.Compare(a.r.(string), b.r.(string)) })
	default:
		_ = stablesort.Sort(vs, func(a, b Value) (bool, error) {
			c, _ := Compare(a, b)
			return c < 0, nil
		})
	}
}

// homogeneous is the kind every value of vs has, or KindNil when they
// differ (or vs is empty).
func homogeneous(vs []Value) Kind {
	if len(vs) == 0 {
		return KindNil
	}
	k := vs[0].k
	for _, v := range vs[1:] {
		if v.k != k {
			return KindNil
		}
	}
	return k
}

// comparator adapts a program's comparison function to stablesort: a
// bool result is "a before b", a number is negative for "a before b".
// A closure is called with one reused argument pair (its parameters are
// copied into the callee's frame, so the pair never escapes); other
// callables get a fresh pair each call.
func (th *thread) comparator(fn Value) func(a, b Value) (bool, error) {
	answer := func(r Value) bool {
		if r.k == KindBool {
			return r.AsBool()
		}
		n, _ := r.Number()
		return n < 0
	}
	if fn.k == KindClosure {
		cl := fn.r.(*Closure)
		pair := make([]Value, 2)
		return func(a, b Value) (bool, error) {
			pair[0], pair[1] = a, b
			r, err := th.callClosure(cl, pair)
			pair[0], pair[1] = Nil, Nil
			if err != nil {
				return false, err
			}
			return answer(r), nil
		}
	}
	return func(a, b Value) (bool, error) {
		r, err := th.callValue(fn, []Value{a, b})
		if err != nil {
			return false, err
		}
		return answer(r), nil
	}
}

// sortIndexByKeys returns the positions 0..len(keys)-1 ordered stably by
// keys under Compare, for sort_by.
func (th *thread) sortIndexByKeys(keys []Value) ([]int, error) {
	if err := th.chargeSort(len(keys)); err != nil {
		return nil, err
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	_ = stablesort.Sort(idx, func(a, b int) (bool, error) {
		c, _ := Compare(keys[a], keys[b])
		return c < 0, nil
	})
	return idx, nil
}

// chargeSort counts a sort of n elements against the run's step budget
// before it starts, as n·log2(n) steps (the comparisons it will make), so
// a budget stops a huge sort instead of letting it run to the end.
func (th *thread) chargeSort(n int) error {
	if n < 2 {
		return nil
	}
	return th.charge(int64(n) * int64(bits.Len(uint(n))))
}
