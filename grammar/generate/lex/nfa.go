package lex

import (
	"slices"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

type nfaKind uint8

const (
	nfaAdvance nfaKind = iota
	nfaSplit
	nfaAccept
)

// nfaState is one NFA state. Advance: on a character of chars go to next.
// Split: epsilon to next and alt. Accept: token variable completes with prec.
type nfaState struct {
	kind      nfaKind
	chars     charset.Set
	next, alt int32
	isSep     bool
	prec      int32
	variable  int32
}

// transition is a grouped NFA transition: on chars, go to the state set
// states (sorted), separator only if every contributing raw transition is,
// with the highest contributing precedence.
type transition struct {
	chars  charset.Set
	isSep  bool
	prec   int32
	states []int32
}

// cursor is a set of NFA states closed under epsilon moves; split states are
// not listed.
type cursor struct {
	nfa    []nfaState
	states []int32
}

func newCursor(nfa []nfaState) *cursor { return &cursor{nfa: nfa} }

// reset replaces the cursor's states by the closure of ids.
func (c *cursor) reset(ids []int32) {
	c.states = c.states[:0]
	c.add(ids)
}

// add closes ids under split moves and inserts the non-split states.
func (c *cursor) add(ids []int32) {
	work := append([]int32(nil), ids...)
	for i := 0; i < len(work); i++ {
		id := work[i]
		st := &c.nfa[id]
		if st.kind == nfaSplit {
			if !slices.Contains(work, st.next) {
				work = append(work, st.next)
			}
			if !slices.Contains(work, st.alt) {
				work = append(work, st.alt)
			}
			continue
		}
		if j, found := slices.BinarySearch(c.states, id); !found {
			c.states = slices.Insert(c.states, j, id)
		}
	}
}

// completion is a token accepted in a cursor state.
type completion struct {
	variable int
	prec     int32
}

func (c *cursor) completions() []completion {
	var out []completion
	for _, id := range c.states {
		if st := &c.nfa[id]; st.kind == nfaAccept {
			out = append(out, completion{int(st.variable), st.prec})
		}
	}
	return out
}

// hasSeparator reports whether any raw transition is a separator.
func (c *cursor) hasSeparator() bool {
	for _, id := range c.states {
		if st := &c.nfa[id]; st.kind == nfaAdvance && st.isSep {
			return true
		}
	}
	return false
}

// rawTransitions returns the cursor's advance states, in state order.
func (c *cursor) rawTransitions() []*nfaState {
	var out []*nfaState
	for _, id := range c.states {
		if st := &c.nfa[id]; st.kind == nfaAdvance {
			out = append(out, st)
		}
	}
	return out
}

// transitions groups the raw transitions into disjoint character sets, each
// with the sorted set of target states, and orders them as the CLI does
// (by charset.Set.Compare).
func (c *cursor) transitions() []transition {
	raw := c.rawTransitions()
	if len(raw) == 0 {
		return nil
	}
	// Sweep the boundaries of all raw character sets; every elementary
	// interval between consecutive boundaries has one key.
	var bounds []rune
	for _, st := range raw {
		for _, r := range st.chars.RawRanges() {
			bounds = append(bounds, r.Start, r.End)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	type key struct {
		states string
		isSep  bool
		prec   int32
	}
	index := map[key]int{}
	var groups []transition
	var ranges [][]charset.Range
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		var states []int32
		isSep, prec, any := true, int32(0), false
		for _, st := range raw {
			if !st.chars.Contains(lo) {
				continue
			}
			if !any {
				prec = st.prec
			} else if st.prec > prec {
				prec = st.prec
			}
			any = true
			isSep = isSep && st.isSep
			if j, found := slices.BinarySearch(states, st.next); !found {
				states = slices.Insert(states, j, st.next)
			}
		}
		if !any {
			continue
		}
		k := key{statesKey(states), isSep, prec}
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, transition{isSep: isSep, prec: prec, states: states})
			ranges = append(ranges, nil)
		}
		ranges[g] = append(ranges[g], charset.Range{Start: lo, End: hi})
	}
	for i := range groups {
		groups[i].chars = charset.FromRanges(ranges[i]...)
	}
	slices.SortFunc(groups, func(a, b transition) int { return a.chars.Compare(b.chars) })
	return groups
}

func statesKey(s []int32) string {
	b := make([]byte, 0, 4*len(s))
	for _, v := range s {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return string(b)
}
