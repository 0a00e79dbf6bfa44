// Package stablesort is the stable sort both interpreters use for their
// sort builtins when the order of equal elements can be observed: a user
// comparator, or a list whose equal elements can still be told apart
// (1 and 1.0, -0.0 and 0.0, records with equal keys).
//
// It is a merge sort with a buffer of half the input: at most n·log2(n)
// comparisons (fewer on presorted runs, which it detects and skips), each
// element moved O(log n) times by plain copies. The standard library's
// stable sorts trade the buffer for O(n·log²(n)) moves; here a comparison
// is usually a call into interpreted code, so comparisons are what cost,
// and the buffer (n/2 elements) is what the caller already budgets for the
// sorted copy it returns.
//
// The comparator may fail: the first error stops the sort at once and is
// returned, leaving the slice a permutation of its input. A comparator that
// is not a strict weak order (random answers, a < b and b < a) cannot make
// the sort loop or lose elements; it only makes the order unspecified.
//
// The package knows nothing of either language.
package stablesort

// insertionRun is the length of the runs sorted by binary insertion before
// merging: short enough that insertion's moves stay cheap, long enough to
// save most of the merge levels' bookkeeping.
const insertionRun = 24

// Sort sorts s stably by less, which reports whether a sorts strictly
// before b. It stops at less's first error and returns it.
func Sort[T any](s []T, less func(a, b T) (bool, error)) error {
	if len(s) < 2 {
		return nil
	}
	if len(s) <= insertionRun {
		return insertionSort(s, less)
	}
	buf := make([]T, len(s)/2+1)
	err := mergeSort(s, buf, less)
	clear(buf) // drop references early; the caller may keep sorting
	return err
}

// mergeSort sorts s using buf (at least len(s)/2 long) as scratch.
func mergeSort[T any](s, buf []T, less func(a, b T) (bool, error)) error {
	if len(s) <= insertionRun {
		return insertionSort(s, less)
	}
	mid := len(s) / 2
	if err := mergeSort(s[:mid], buf, less); err != nil {
		return err
	}
	if err := mergeSort(s[mid:], buf, less); err != nil {
		return err
	}
	// already in order across the midpoint: nothing to merge
	if lt, err := less(s[mid], s[mid-1]); err != nil || !lt {
		return err
	}
	return merge(s, mid, buf, less)
}

// merge merges the sorted halves s[:mid] and s[mid:] in place, copying the
// left half to buf. Ties take the left element first, which keeps the
// sort stable. On an error the remaining elements are copied back so that
// s stays a permutation of its input.
func merge[T any](s []T, mid int, buf []T, less func(a, b T) (bool, error)) error {
	left := buf[:mid]
	copy(left, s[:mid])
	i, j, k := 0, mid, 0
	for i < len(left) && j < len(s) {
		lt, err := less(s[j], left[i])
		if err != nil {
			// s[k:j] is free: put the unmerged left elements there
			copy(s[k:], left[i:])
			return err
		}
		if lt {
			s[k] = s[j]
			j++
		} else {
			s[k] = left[i]
			i++
		}
		k++
	}
	copy(s[k:], left[i:])
	return nil
}

// insertionSort sorts a short s by binary insertion: each element goes
// after every element it does not sort before, so equal elements keep
// their order.
func insertionSort[T any](s []T, less func(a, b T) (bool, error)) error {
	for i := 1; i < len(s); i++ {
		x := s[i]
		// fast path: already in place after its predecessor
		lt, err := less(x, s[i-1])
		if err != nil {
			return err
		}
		if !lt {
			continue
		}
		lo, hi := 0, i-1 // x sorts before s[i-1]; find the first element x sorts before
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			lt, err := less(x, s[m])
			if err != nil {
				return err
			}
			if lt {
				hi = m
			} else {
				lo = m + 1
			}
		}
		copy(s[lo+1:i+1], s[lo:i])
		s[lo] = x
	}
	return nil
}
