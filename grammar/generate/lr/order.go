package lr

import "math/bits"

// cliSort orders v by key exactly as the tree-sitter CLI's unstable sort
// (Rust's ipnsort over a slice of machine words) does, so that states of
// equal size end up in the same positions as in official parsers. Only
// the outcome matters; the steps follow the same comparisons and moves.
func cliSort(v []int, key func(int) int64) {
	s := &cliSorter{key: key}
	s.sort(v)
}

type cliSorter struct {
	key func(int) int64
}

func (s *cliSorter) less(a, b int) bool { return s.key(a) < s.key(b) }

func (s *cliSorter) sort(v []int) {
	n := len(v)
	if n < 2 {
		return
	}
	if n <= 20 {
		s.insertionFrom(v, 1)
		return
	}
	run, descending := s.leadingRun(v)
	if run == n {
		if descending {
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				v[i], v[j] = v[j], v[i]
			}
		}
		return
	}
	limit := 2 * (bits.Len(uint(n|1)) - 1)
	s.quicksort(v, nil, limit)
}

// leadingRun measures the sorted (or strictly descending) prefix.
func (s *cliSorter) leadingRun(v []int) (int, bool) {
	n := len(v)
	run := 2
	desc := s.less(v[1], v[0])
	if desc {
		for run < n && s.less(v[run], v[run-1]) {
			run++
		}
	} else {
		for run < n && !s.less(v[run], v[run-1]) {
			run++
		}
	}
	return run, desc
}

// insertionFrom sorts v given that v[:sorted] already is.
func (s *cliSorter) insertionFrom(v []int, sorted int) {
	for tail := sorted; tail < len(v); tail++ {
		x := v[tail]
		j := tail
		for j > 0 && s.less(x, v[j-1]) {
			v[j] = v[j-1]
			j--
		}
		v[j] = x
	}
}

const cliSmallSort = 32

func (s *cliSorter) quicksort(v []int, ancestor *int, limit int) {
	for {
		if len(v) <= cliSmallSort {
			s.smallSort(v)
			return
		}
		if limit == 0 {
			s.heapsort(v)
			return
		}
		limit--
		p := s.choosePivot(v)
		if ancestor != nil && !s.less(*ancestor, v[p]) {
			lt := s.partition(v, p, func(a, b int) bool { return !s.less(b, a) })
			v = v[lt+1:]
			ancestor = nil
			continue
		}
		lt := s.partition(v, p, s.less)
		s.quicksort(v[:lt], ancestor, limit)
		pivot := v[lt]
		ancestor = &pivot
		v = v[lt+1:]
	}
}

// partition moves the pivot to the front, splits the rest into elements
// less than it and the others with a cyclic Lomuto scheme, and puts the
// pivot between them. It returns the pivot's final index.
func (s *cliSorter) partition(v []int, p int, less func(a, b int) bool) int {
	v[0], v[p] = v[p], v[0]
	pivot := v[0]
	w := v[1:]
	n := len(w)
	lt := 0
	if n > 0 {
		hole := w[0] // the first element waits outside the slice
		gap := 0
		step := func(elem int, at int) {
			isLess := less(elem, pivot)
			w[gap] = w[lt]
			w[lt] = elem
			gap = at
			if isLess {
				lt++
			}
		}
		r := 1
		for r < n-1 {
			step(w[r], r)
			step(w[r+1], r+1)
			r += 2
		}
		for ; r < n; r++ {
			step(w[r], r)
		}
		step(hole, -1)
	}
	v[0], v[lt] = v[lt], v[0]
	return lt
}

func (s *cliSorter) choosePivot(v []int) int {
	n8 := len(v) / 8
	a, b, c := 0, n8*4, n8*7
	if len(v) < 64 {
		return s.median3(v, a, b, c)
	}
	return s.median3Rec(v, a, b, c, n8)
}

func (s *cliSorter) median3Rec(v []int, a, b, c, n int) int {
	if n*8 >= 64 {
		n8 := n / 8
		a = s.median3Rec(v, a, a+n8*4, a+n8*7, n8)
		b = s.median3Rec(v, b, b+n8*4, b+n8*7, n8)
		c = s.median3Rec(v, c, c+n8*4, c+n8*7, n8)
	}
	return s.median3(v, a, b, c)
}

func (s *cliSorter) median3(v []int, a, b, c int) int {
	x := s.less(v[a], v[b])
	y := s.less(v[a], v[c])
	if x != y {
		return a
	}
	if s.less(v[b], v[c]) != x {
		return c
	}
	return b
}

func (s *cliSorter) heapsort(v []int) {
	n := len(v)
	for i := n + n/2 - 1; i >= 0; i-- {
		node := 0
		if i >= n {
			node = i - n
		} else {
			v[0], v[i] = v[i], v[0]
		}
		h := v[:min(i, n)]
		for {
			child := 2*node + 1
			if child >= len(h) {
				break
			}
			if child+1 < len(h) && s.less(h[child], h[child+1]) {
				child++
			}
			if !s.less(h[node], h[child]) {
				break
			}
			h[node], h[child] = h[child], h[node]
			node = child
		}
	}
}

// smallSort sorts up to 32 elements: sorting networks for a prefix of
// each half, insertion for the rest, then a two-ended merge of the halves.
func (s *cliSorter) smallSort(v []int) {
	n := len(v)
	if n < 2 {
		return
	}
	half := n / 2
	if n < 18 {
		s.presortRegion(v)
		return
	}
	s.presortRegion(v[:half])
	s.presortRegion(v[half:])
	out := make([]int, n)
	s.mergeHalves(v, out)
	copy(v, out)
}

func (s *cliSorter) presortRegion(r []int) {
	sorted := 1
	switch {
	case len(r) >= 13:
		s.network(r, network13)
		sorted = 13
	case len(r) >= 9:
		s.network(r, network9)
		sorted = 9
	}
	s.insertionFrom(r, sorted)
}

func (s *cliSorter) network(r []int, pairs [][2]int) {
	for _, p := range pairs {
		if s.less(r[p[1]], r[p[0]]) {
			r[p[0]], r[p[1]] = r[p[1]], r[p[0]]
		}
	}
}

// mergeHalves merges the sorted halves of src into dst from both ends at
// once.
func (s *cliSorter) mergeHalves(src, dst []int) {
	n := len(src)
	half := n / 2
	l, r, d := 0, half, 0
	lr, rr, dr := half-1, n-1, n-1
	at := func(i int) int {
		if i < 0 {
			i = 0
		}
		if i >= n {
			i = n - 1
		}
		return src[i]
	}
	for k := 0; k < half; k++ {
		if !s.less(at(r), at(l)) {
			dst[d] = at(l)
			l++
		} else {
			dst[d] = at(r)
			r++
		}
		d++
		if !s.less(at(rr), at(lr)) {
			dst[dr] = at(rr)
			rr--
		} else {
			dst[dr] = at(lr)
			lr--
		}
		dr--
	}
	if n%2 != 0 {
		if l < lr+1 {
			dst[d] = at(l)
		} else {
			dst[d] = at(r)
		}
	}
}

// Optimal sorting networks for 9 and 13 elements (comparator pairs).
var network9 = [][2]int{
	{0, 3}, {1, 7}, {2, 5}, {4, 8}, {0, 7}, {2, 4}, {3, 8}, {5, 6}, {0, 2}, {1, 3}, {4, 5}, {7, 8},
	{1, 4}, {3, 6}, {5, 7}, {0, 1}, {2, 4}, {3, 5}, {6, 8}, {2, 3}, {4, 5}, {6, 7}, {1, 2}, {3, 4}, {5, 6},
}

var network13 = [][2]int{
	{0, 12}, {1, 10}, {2, 9}, {3, 7}, {5, 11}, {6, 8}, {1, 6}, {2, 3}, {4, 11}, {7, 9}, {8, 10},
	{0, 4}, {1, 2}, {3, 6}, {7, 8}, {9, 10}, {11, 12}, {4, 6}, {5, 9}, {8, 11}, {10, 12},
	{0, 5}, {3, 8}, {4, 7}, {6, 11}, {9, 10}, {0, 1}, {2, 5}, {6, 9}, {7, 8}, {10, 11},
	{1, 3}, {2, 4}, {5, 6}, {9, 10}, {1, 2}, {3, 4}, {5, 7}, {6, 8}, {2, 3}, {4, 5}, {6, 7}, {8, 9},
	{3, 4}, {5, 6},
}
