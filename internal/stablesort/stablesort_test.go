package stablesort

import (
	"cmp"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

type rec struct{ key, seq int }

func byKey(a, b rec) (bool, error) { return a.key < b.key, nil }

func records(n, keys int, r *rand.Rand) []rec {
	s := make([]rec, n)
	for i := range s {
		s[i] = rec{r.IntN(keys), i}
	}
	return s
}

// TestSortMatchesStdlibStable compares the result with the standard
// library's stable sort, element for element, so both the order and the
// stability are checked, over sizes around the insertion-run boundary and
// inputs that are random, presorted, reversed and all equal.
func TestSortMatchesStdlibStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := []struct {
		name string
		make func(n int) []rec
	}{
		{"random few keys", func(n int) []rec { return records(n, 5, r) }},
		{"random many keys", func(n int) []rec { return records(n, n+1, r) }},
		{"sorted", func(n int) []rec {
			s := records(n, n+1, r)
			slices.SortStableFunc(s, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
			return s
		}},
		{"reversed", func(n int) []rec {
			s := make([]rec, n)
			for i := range s {
				s[i] = rec{n - i, i}
			}
			return s
		}},
		{"all equal", func(n int) []rec { return records(n, 1, r) }},
	}
	for _, sh := range shapes {
		for _, n := range []int{0, 1, 2, 3, insertionRun - 1, insertionRun, insertionRun + 1, 2*insertionRun + 1, 100, 1000, 4097} {
			in := sh.make(n)
			got := slices.Clone(in)
			if err := Sort(got, byKey); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
			if !slices.Equal(got, want) {
				t.Errorf("%s, n=%d: got %v, want %v", sh.name, n, head(got), head(want))
			}
		}
	}
}

func head(s []rec) []rec { return s[:min(len(s), 8)] }

// TestSortComparisons checks the point of the package: a merge sort makes
// at most n·⌈log2 n⌉ comparisons, and a presorted input about n.
func TestSortComparisons(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{100, 10000, 100000} {
		s := records(n, n, r)
		calls := 0
		count := func(a, b rec) (bool, error) { calls++; return a.key < b.key, nil }
		if err := Sort(s, count); err != nil {
			t.Fatal(err)
		}
		if bound := n * bits.Len(uint(n)); calls > bound {
			t.Errorf("random n=%d: %d comparisons, more than n·⌈log2 n⌉ = %d", n, calls, bound)
		}
		calls = 0
		if err := Sort(s, count); err != nil {
			t.Fatal(err)
		}
		if calls > 2*n {
			t.Errorf("sorted n=%d: %d comparisons, want at most %d", n, calls, 2*n)
		}
	}
}

// TestSortStopsAtFirstError: the sort returns the comparator's error
// without calling it again, and leaves a permutation of the input.
func TestSortStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	for _, failAt := range []int{1, 5, 30, 200, 900} {
		r := rand.New(rand.NewPCG(5, uint64(failAt)))
		s := records(1000, 1000, r)
		calls := 0
		err := Sort(s, func(a, b rec) (bool, error) {
			calls++
			if calls == failAt {
				return false, boom
			}
			if calls > failAt {
				t.Fatalf("comparator called again after failing")
			}
			return a.key < b.key, nil
		})
		if !errors.Is(err, boom) {
			t.Fatalf("failAt=%d: err = %v, want boom", failAt, err)
		}
		assertPermutation(t, s, 1000)
	}
}

// TestSortInconsistentComparator: answers that are no order at all end
// the sort normally with every element still present.
func TestSortInconsistentComparator(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s := records(5000, 5000, r)
	if err := Sort(s, func(a, b rec) (bool, error) { return r.IntN(2) == 0, nil }); err != nil {
		t.Fatal(err)
	}
	assertPermutation(t, s, 5000)
}

func assertPermutation(t *testing.T, s []rec, n int) {
	t.Helper()
	seen := make([]bool, n)
	for _, x := range s {
		if x.seq < 0 || x.seq >= n || seen[x.seq] {
			t.Fatalf("not a permutation: element %d duplicated or foreign", x.seq)
		}
		seen[x.seq] = true
	}
}

func FuzzSort(f *testing.F) {
	f.Add([]byte{3, 1, 2, 1, 0, 9, 9, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := make([]rec, len(data))
		for i, b := range data {
			in[i] = rec{int(b % 7), i}
		}
		got := slices.Clone(in)
		if err := Sort(got, byKey); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
		if !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	in := records(200000, 1<<30, r)
	s := make([]rec, len(in))
	b.Run("stablesort", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			_ = Sort(s, byKey)
		}
	})
	b.Run("slices.SortStableFunc", func(b *testing.B) {
		for b.Loop() {
			copy(s, in)
			slices.SortStableFunc(s, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
		}
	})
}
