package leia

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/internal/stablesort"
)

// Sorting. Leia's table.sort and the sort module are stable (upstream
// sorts with Go's sort.SliceStable), so equal elements keep their order.
// Without a comparator, arrays of only integers or only strings have no
// equal elements that could be told apart, so they take an unstable
// in-place sort on unboxed keys; everything else, and every comparator
// written in Leia, goes through the merge sort of internal/stablesort,
// which makes the fewest comparisons. Errors raised by a comparator
// (Leia errors are panics) unwind through the sort and leave the table
// as it was.

// sortNatural sorts vs by the language's < (metamethods included),
// stably; desc reverses the order, still keeping equal elements in place.
func (th *Thread) sortNatural(vs []Value, desc bool) {
	th.chargeSort(len(vs))
	switch homogeneous(vs) {
	case KindInt:
		keys := make([]int64, len(vs))
		for i, v := range vs {
			keys[i] = int64(v.n)
		}
		slices.Sort(keys)
		if desc {
			slices.Reverse(keys)
		}
		for i, k := range keys {
			vs[i] = Int(k)
		}
		return
	case KindString:
		if desc {
			slices.SortFunc(vs, func(a, b Value) int { return strings.Compare(b.AsString(), a.AsString()) })
		} else {
			slices.SortFunc(vs, func(a, b Value) int { return strings.Compare(a.AsString(), b.AsString()) })
		}
		return
	}
	less := func(a, b Value) (bool, error) { return th.less(a, b, -1), nil }
	if desc {
		less = func(a, b Value) (bool, error) { return th.less(b, a, -1), nil }
	}
	_ = stablesort.Sort(vs, less)
}

// sortWith sorts vs stably by a Leia comparison function: cmp(a, b) is
// truthy when a sorts before b.
func (th *Thread) sortWith(vs []Value, cmp Value) {
	th.chargeSort(len(vs))
	_ = stablesort.Sort(vs, func(a, b Value) (bool, error) {
		return th.call1At(cmp, -1, a, b).Truthy(), nil
	})
}

// sortStable sorts vs stably by a Go less function (which may raise Leia
// errors by panicking).
func (th *Thread) sortStable(vs []Value, less func(a, b Value) bool) {
	th.chargeSort(len(vs))
	_ = stablesort.Sort(vs, func(a, b Value) (bool, error) { return less(a, b), nil })
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

// chargeSort counts a sort of n elements against the step budget before
// it starts, as n·log2(n) steps (the comparisons it will make), and checks
// the run, so a budget stops a huge sort instead of letting it run.
func (th *Thread) chargeSort(n int) {
	if n < 2 {
		return
	}
	if err := th.meter.Steps(int64(n) * int64(bits.Len(uint(n)))); err != nil {
		panic(th.stopError(err, -1))
	}
}
