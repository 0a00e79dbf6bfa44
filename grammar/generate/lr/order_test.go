package lr

import (
	"math/rand"
	"slices"
	"testing"
)

// cliSort must sort by key and keep a permutation, through every path:
// insertion (<= 20), runs, the small-sort networks (<= 32), recursive
// pivots (>= 64) and heavy duplicates (the equal-to-ancestor partition);
// the heapsort fallback is checked directly.
func TestCLISortSorts(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{0, 1, 2, 5, 20, 21, 31, 32, 33, 63, 64, 65, 200, 1000, 5000} {
		for _, distinct := range []int{1, 3, 50, 1 << 30} {
			keys := make([]int64, n)
			for i := range keys {
				keys[i] = int64(rng.Intn(distinct))
			}
			v := make([]int, n)
			for i := range v {
				v[i] = i
			}
			cliSort(v, func(i int) int64 { return keys[i] })
			seen := make([]bool, n)
			for i, x := range v {
				if seen[x] {
					t.Fatalf("n=%d: %d appears twice", n, x)
				}
				seen[x] = true
				if i > 0 && keys[v[i-1]] > keys[x] {
					t.Fatalf("n=%d distinct=%d: not sorted at %d", n, distinct, i)
				}
			}
		}
	}
	keys := make([]int64, 300)
	for i := range keys {
		keys[i] = int64(rng.Intn(40))
	}
	h := make([]int, 300)
	for i := range h {
		h[i] = i
	}
	(&cliSorter{key: func(i int) int64 { return keys[i] }}).heapsort(h)
	for i := 1; i < len(h); i++ {
		if keys[h[i-1]] > keys[h[i]] {
			t.Fatalf("heapsort: not sorted at %d", i)
		}
	}
	// Already sorted and strictly descending inputs take the run shortcut.
	v := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}
	desc := slices.Clone(v)
	cliSort(desc, func(i int) int64 { return -int64(i) })
	slices.Reverse(v)
	if !slices.Equal(desc, v) {
		t.Errorf("descending run: %v", desc)
	}
}

// Ties are not kept in input order (the CLI's sort is unstable); the
// exact placement is what makes state numbers match official parsers.
func TestCLISortIsDeterministicButUnstable(t *testing.T) {
	keys := make([]int64, 100)
	for i := range keys {
		keys[i] = int64(i % 4)
	}
	key := func(i int) int64 { return keys[i] }
	a, b := make([]int, 100), make([]int, 100)
	for i := range a {
		a[i], b[i] = i, i
	}
	cliSort(a, key)
	cliSort(b, key)
	if !slices.Equal(a, b) {
		t.Fatal("two runs differ")
	}
	stable := true
	for i := 1; i < len(a); i++ {
		if keys[a[i]] == keys[a[i-1]] && a[i] < a[i-1] {
			stable = false
		}
	}
	if stable {
		t.Error("expected the unstable order of the CLI's sort, got a stable one")
	}
}
