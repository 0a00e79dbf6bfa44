// Package charset implements sets of Unicode code points as sorted lists of
// disjoint half-open ranges, the character-set model of tree-sitter's
// lexer generator. Sets cover 0..U+10FFFF; negation is taken over that whole
// space (surrogates included, as tree-sitter does), and Ranges skips
// code points that are not valid characters at range ends when rendering.
//
// Every operation returns a canonical set: ranges sorted, non-empty, and
// separated by at least one code point, so structural equality is set
// equality.
package charset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// End is one past the largest code point.
const End rune = 0x110000

// Range is the half-open interval [Start, End) of code points.
type Range struct {
	Start, End rune
}

// Set is an immutable set of code points. The zero value is empty.
type Set struct {
	r []Range
}

// Empty returns the empty set.
func Empty() Set { return Set{} }

// Char returns the set holding only c.
func Char(c rune) Set { return Set{r: []Range{{c, c + 1}}} }

// Between returns the set of code points lo..hi inclusive (order-insensitive).
func Between(lo, hi rune) Set {
	if lo > hi {
		lo, hi = hi, lo
	}
	return Set{r: []Range{{lo, hi + 1}}}
}

// FromRanges builds a set from half-open ranges in any order, overlapping or not.
func FromRanges(rs ...Range) Set {
	sorted := make([]Range, 0, len(rs))
	for _, r := range rs {
		if r.Start < r.End {
			sorted = append(sorted, r)
		}
	}
	slices.SortFunc(sorted, func(a, b Range) int { return cmp.Compare(int(a.Start), int(b.Start)) })
	var out []Range
	for _, r := range sorted {
		if n := len(out); n > 0 && out[n-1].End >= r.Start {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return Set{r: out}
}

// RawRanges returns the half-open ranges (do not modify).
func (s Set) RawRanges() []Range { return s.r }

// IsEmpty reports whether the set has no code points.
func (s Set) IsEmpty() bool { return len(s.r) == 0 }

// RangeCount returns the number of maximal ranges.
func (s Set) RangeCount() int { return len(s.r) }

// Size returns the number of code points.
func (s Set) Size() int {
	n := 0
	for _, r := range s.r {
		n += int(r.End - r.Start)
	}
	return n
}

// Contains reports whether c is in the set.
func (s Set) Contains(c rune) bool { return s.ContainsRange(Range{c, c + 1}) }

// ContainsRange reports whether every code point of r is in the set.
// An empty r is contained when r.Start lies inside or right after a range,
// matching the CLI's probe (used by SimplifyIgnoring).
func (s Set) ContainsRange(r Range) bool {
	lo, hi := 0, len(s.r)
	for lo < hi {
		m := (lo + hi) / 2
		if s.r[m].End <= r.Start {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// lo is the first range ending after r.Start.
	if lo < len(s.r) && s.r[lo].Start <= r.Start && s.r[lo].End >= r.End {
		return true
	}
	return false
}

// Union returns s ∪ o.
func (s Set) Union(o Set) Set {
	if len(o.r) == 0 {
		return s
	}
	if len(s.r) == 0 {
		return o
	}
	out := make([]Range, 0, len(s.r)+len(o.r))
	i, j := 0, 0
	push := func(r Range) {
		if n := len(out); n > 0 && out[n-1].End >= r.Start {
			if r.End > out[n-1].End {
				out[n-1].End = r.End
			}
			return
		}
		out = append(out, r)
	}
	for i < len(s.r) || j < len(o.r) {
		if j >= len(o.r) || (i < len(s.r) && s.r[i].Start <= o.r[j].Start) {
			push(s.r[i])
			i++
		} else {
			push(o.r[j])
			j++
		}
	}
	return Set{r: out}
}

// Intersect returns s ∩ o.
func (s Set) Intersect(o Set) Set {
	var out []Range
	i, j := 0, 0
	for i < len(s.r) && j < len(o.r) {
		a, b := s.r[i], o.r[j]
		lo, hi := max(a.Start, b.Start), min(a.End, b.End)
		if lo < hi {
			out = append(out, Range{lo, hi})
		}
		if a.End < b.End {
			i++
		} else {
			j++
		}
	}
	return Set{r: out}
}

// Intersects reports whether s and o share a code point.
func (s Set) Intersects(o Set) bool {
	i, j := 0, 0
	for i < len(s.r) && j < len(o.r) {
		a, b := s.r[i], o.r[j]
		if a.End <= b.Start {
			i++
		} else if a.Start >= b.End {
			j++
		} else {
			return true
		}
	}
	return false
}

// Negate returns the complement of s within 0..U+10FFFF.
func (s Set) Negate() Set {
	var out []Range
	prev := rune(0)
	for _, r := range s.r {
		if prev < r.Start {
			out = append(out, Range{prev, r.Start})
		}
		prev = r.End
	}
	if prev < End {
		out = append(out, Range{prev, End})
	}
	return Set{r: out}
}

// Difference returns s \ o.
func (s Set) Difference(o Set) Set { return s.Intersect(o.Negate()) }

// SymmetricDifference returns the code points in exactly one of s and o.
func (s Set) SymmetricDifference(o Set) Set {
	return s.Difference(o).Union(o.Difference(s))
}

// Split returns (s∩o, s\o, o\s): the CLI's remove_intersection.
func (s Set) Split(o Set) (both, onlyS, onlyO Set) {
	both = s.Intersect(o)
	return both, s.Difference(both), o.Difference(both)
}

// Equal reports set equality.
func (s Set) Equal(o Set) bool {
	if len(s.r) != len(o.r) {
		return false
	}
	for i := range s.r {
		if s.r[i] != o.r[i] {
			return false
		}
	}
	return true
}

// Compare orders sets as the CLI does: by number of code points, then range
// by range by length, then by start. It is a total order on distinct
// disjoint sets and decides the order of DFA transitions.
func (s Set) Compare(o Set) int {
	if a, b := s.Size(), o.Size(); a != b {
		return cmp.Compare(a, b)
	}
	for i := 0; i < len(s.r) && i < len(o.r); i++ {
		a, b := s.r[i], o.r[i]
		if la, lb := a.End-a.Start, b.End-b.Start; la != lb {
			return cmp.Compare(int(la), int(lb))
		}
		if a.Start != b.Start {
			return cmp.Compare(int(a.Start), int(b.Start))
		}
	}
	return 0
}

func validChar(c rune) bool { return c < End && (c < 0xD800 || c > 0xDFFF) }

// Ranges returns the set as inclusive ranges of valid characters: each
// range's ends are moved inward past surrogates, and a range holding only
// surrogates is dropped (the CLI's rendering view).
func (s Set) Ranges() [][2]rune {
	out := make([][2]rune, 0, len(s.r))
	for _, r := range s.r {
		lo, hi := r.Start, r.End-1
		for lo <= hi && !validChar(lo) {
			lo++
		}
		for hi >= lo && !validChar(hi) {
			hi--
		}
		if lo <= hi {
			out = append(out, [2]rune{lo, hi})
		}
	}
	return out
}

// EachChar calls f for every valid character in ascending order until f
// returns false.
func (s Set) EachChar(f func(c rune) bool) {
	for _, r := range s.r {
		for c := r.Start; c < r.End; c++ {
			if validChar(c) && !f(c) {
				return
			}
		}
	}
}

// SimplifyIgnoring returns a set with fewer ranges that agrees with s on
// every code point outside ruledOut: ranges wholly inside ruledOut are
// dropped and neighbours whose gap lies inside ruledOut are joined. The
// result may be empty, meaning "everything not ruled out".
func (s Set) SimplifyIgnoring(ruledOut Set) Set {
	var out []Range
	var prev *Range
	for _, r := range s.r {
		if ruledOut.ContainsRange(r) {
			continue
		}
		if prev != nil && ruledOut.ContainsRange(Range{prev.End, r.Start}) {
			prev.End = r.End
			continue
		}
		if prev != nil {
			out = append(out, *prev)
		}
		rr := r
		prev = &rr
	}
	if prev != nil {
		out = append(out, *prev)
	}
	return Set{r: out}
}

// String renders the set for diagnostics, e.g. "[a-c x]" or "^[\n]".
func (s Set) String() string {
	var b strings.Builder
	set := s
	if s.Contains(End - 1) {
		b.WriteString("^")
		set = s.Negate()
	}
	b.WriteString("[")
	for i, r := range set.r {
		if i > 0 {
			b.WriteString(" ")
		}
		if r.End-r.Start == 1 {
			fmt.Fprintf(&b, "%q", r.Start)
		} else {
			fmt.Fprintf(&b, "%q-%q", r.Start, r.End-1)
		}
	}
	b.WriteString("]")
	return b.String()
}
