package lex

import (
	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// conflictStatus is what walking two tokens' NFAs together revealed about
// one of them (row token i against column token j).
type conflictStatus struct {
	matchesPrefix            bool // i matches a prefix of something j matches, and j wins by going on
	matchesContinuation      bool // i goes on past a place where j completed
	matchesValidContinuation bool // ... through a character that can start a token following j
	matchesSeparators        bool // i completes where separators could still be skipped
	matchesSameString        bool // i and j match one string and i is preferred
	matchesDifferentString   bool // i matches a string j cannot match
}

// ConflictMap is tree-sitter's TokenConflictMap: for every ordered pair of
// tokens, how they overlap.
type ConflictMap struct {
	g              *Grammar
	n              int
	status         []conflictStatus
	startingChars  []charset.Set
	followingChars []charset.Set
}

// NewConflictMap analyses every token pair. followingTokens[i] holds the
// tokens that can follow token i in some parse state.
func NewConflictMap(g *Grammar, followingTokens []ir.TokenSet) *ConflictMap {
	n := len(g.Variables)
	m := &ConflictMap{g: g, n: n, status: make([]conflictStatus, n*n)}
	c := newCursor(g.nfa)
	for _, v := range g.Variables {
		c.reset([]int32{v.startState})
		all := charset.Empty()
		for _, st := range c.rawTransitions() {
			all = all.Union(st.chars)
		}
		m.startingChars = append(m.startingChars, all)
	}
	m.followingChars = make([]charset.Set, n)
	for i := 0; i < n && i < len(followingTokens); i++ {
		chars := charset.Empty()
		followingTokens[i].Each(func(t int) {
			if t < n {
				chars = chars.Union(m.startingChars[t])
			}
		})
		m.followingChars[i] = chars
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			a, b := m.compute(c, i, j)
			m.status[i*n+j] = a
			m.status[j*n+i] = b
		}
	}
	return m
}

func (m *ConflictMap) at(i, j int) *conflictStatus { return &m.status[i*m.n+j] }

// DoesConflict reports whether token i can be wrongly lexed as j: i
// matches a valid continuation of j, matches while separators are still
// pending, or matches the same string and is preferred.
func (m *ConflictMap) DoesConflict(i, j int) bool {
	s := m.at(i, j)
	return s.matchesValidContinuation || s.matchesSeparators || s.matchesSameString
}

// DoesMatchSameString reports whether i and j match a common string and i
// is preferred over j there.
func (m *ConflictMap) DoesMatchSameString(i, j int) bool { return m.at(i, j).matchesSameString }

// DoesMatchDifferentString reports whether i matches a string j does not.
func (m *ConflictMap) DoesMatchDifferentString(i, j int) bool {
	return m.at(i, j).matchesDifferentString
}

// DoesMatchPrefix reports whether i matches a prefix of a string j matches
// (where j wins by continuing).
func (m *ConflictMap) DoesMatchPrefix(i, j int) bool { return m.at(i, j).matchesPrefix }

// DoesMatchShorterOrLonger reports whether i matches a valid continuation
// or separators against j while j does not match separators against i.
func (m *ConflictMap) DoesMatchShorterOrLonger(i, j int) bool {
	s, r := m.at(i, j), m.at(j, i)
	return (s.matchesValidContinuation || s.matchesSeparators) && !r.matchesSeparators
}

// DoesOverlap reports any overlap of i against j (separators, prefix, same
// string, continuation); such a token is not reusable next to the other.
func (m *ConflictMap) DoesOverlap(i, j int) bool {
	s := m.at(i, j)
	return s.matchesSeparators || s.matchesPrefix || s.matchesSameString || s.matchesContinuation
}

// hasSameStatus reports whether a and b relate identically to other.
func (m *ConflictMap) hasSameStatus(a, b, other int) bool { return *m.at(a, other) == *m.at(b, other) }

// PreferToken reports whether left is preferred over right when both match
// the same text with equal in-token precedence.
func (m *ConflictMap) PreferToken(left, right int) bool {
	return preferToken(m.g, completion{left, 0}, completion{right, 0})
}

// preferToken: higher in-token precedence, then implicit precedence, then
// the lower index.
func preferToken(g *Grammar, left, right completion) bool {
	if left.prec != right.prec {
		return left.prec > right.prec
	}
	li, ri := g.Variables[left.variable].ImplicitPrecedence, g.Variables[right.variable].ImplicitPrecedence
	if li != ri {
		return li > ri
	}
	return left.variable < right.variable
}

// preferTransition reports whether continuing along t beats accepting the
// completed token.
func preferTransition(g *Grammar, t *transition, completed completion, hasSep bool) bool {
	if t.prec < completed.prec {
		return false
	}
	if t.prec == completed.prec {
		if t.isSep {
			return false
		}
		if hasSep {
			for _, v := range g.variablesOf(t.states) {
				if v == completed.variable {
					return true
				}
			}
			return false
		}
	}
	return true
}

func (m *ConflictMap) compute(c *cursor, i, j int) (conflictStatus, conflictStatus) {
	g := m.g
	var ri, rj conflictStatus
	visited := map[string]bool{}
	queue := [][]int32{{g.Variables[i].startState, g.Variables[j].startState}}
	for len(queue) > 0 {
		set := queue[len(queue)-1]
		queue = queue[:len(queue)-1]

		// Only one token alive: it matches something the other cannot.
		live := liveVariables(g, set)
		if len(live) == 1 {
			if live[0] == i {
				ri.matchesDifferentString = true
			} else {
				rj.matchesDifferentString = true
			}
			continue
		}

		c.reset(set)
		withinSep := c.hasSeparator()
		var done *completion
		for _, comp := range c.completions() {
			if withinSep {
				if comp.variable == i {
					ri.matchesSeparators = true
				} else {
					rj.matchesSeparators = true
				}
			}
			if done == nil {
				cc := comp
				done = &cc
				continue
			}
			if comp.variable == done.variable {
				continue
			}
			preferred := comp.variable
			if preferToken(g, *done, comp) {
				preferred = done.variable
			} else {
				cc := comp
				done = &cc
			}
			if preferred == i {
				ri.matchesSameString = true
			} else {
				rj.matchesSameString = true
			}
		}

		for _, t := range c.transitions() {
			if done != nil {
				advanced, hasCompleted := -1, false
				for _, v := range g.variablesOf(t.states) {
					if v == done.variable {
						hasCompleted = true
						break
					}
					advanced = v
				}
				if advanced >= 0 && !hasCompleted {
					if preferTransition(g, &t, *done, withinSep) {
						if advanced == i {
							ri.matchesContinuation = true
							if t.chars.Intersects(m.followingChars[j]) {
								ri.matchesValidContinuation = true
							}
						} else {
							rj.matchesContinuation = true
							if t.chars.Intersects(m.followingChars[i]) {
								rj.matchesValidContinuation = true
							}
						}
					} else if done.variable == i {
						ri.matchesPrefix = true
					} else {
						rj.matchesPrefix = true
					}
				}
			}
			k := statesKey(t.states)
			if !visited[k] {
				visited[k] = true
				queue = append(queue, t.states)
			}
		}
	}
	return ri, rj
}

// liveVariables lists the distinct tokens of an unsorted raw state list in
// order of first appearance (consecutive duplicates collapsed, as the CLI).
func liveVariables(g *Grammar, states []int32) []int {
	var out []int
	for _, s := range states {
		v := g.variableOf(s)
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	if len(out) > 1 {
		first := out[0]
		for _, v := range out[1:] {
			if v != first {
				return out
			}
		}
		return out[:1]
	}
	return out
}

// CoincidentIndex records, for each token pair, the parse states where
// both are valid.
type CoincidentIndex struct {
	n       int
	entries [][]int32
}

// NewCoincidentIndex builds the index. stateTokens[s] = terminals valid in
// parse state s (keywords not replaced; the error state still empty, as
// the CLI builds it before filling state 0).
func NewCoincidentIndex(tokenCount int, stateTokens []ir.TokenSet) *CoincidentIndex {
	c := &CoincidentIndex{n: tokenCount, entries: make([][]int32, tokenCount*tokenCount)}
	for s, set := range stateTokens {
		toks := set.Slice()
		for _, a := range toks {
			if a >= tokenCount {
				continue
			}
			for _, b := range toks {
				if b >= tokenCount || b < a {
					continue
				}
				k := c.index(a, b)
				if e := c.entries[k]; len(e) == 0 || e[len(e)-1] != int32(s) {
					c.entries[k] = append(e, int32(s))
				}
			}
		}
	}
	return c
}

func (c *CoincidentIndex) index(a, b int) int {
	if a > b {
		a, b = b, a
	}
	return a*c.n + b
}

// Contains reports whether tokens i and j are valid together in some state.
func (c *CoincidentIndex) Contains(i, j int) bool { return len(c.entries[c.index(i, j)]) > 0 }

// StatesWith returns the parse states where i and j are both valid.
func (c *CoincidentIndex) StatesWith(i, j int) []int32 { return c.entries[c.index(i, j)] }

// IdentifyKeywords returns the tokens to lex with the keyword DFA (spec
// 3.4); word < 0 means the grammar has no word token.
func IdentifyKeywords(g *Grammar, word int, m *ConflictMap, c *CoincidentIndex, stateTokens []ir.TokenSet) ir.TokenSet {
	var out ir.TokenSet
	if word < 0 {
		return out
	}
	n := len(g.Variables)
	cur := newCursor(g.nfa)
	var candidates ir.TokenSet
	for i, v := range g.Variables {
		cur.reset([]int32{v.startState})
		if allAlphabetical(cur) && m.DoesMatchSameString(i, word) && !m.DoesMatchDifferentString(i, word) {
			candidates.Add(i)
		}
	}
	var keywords ir.TokenSet
	candidates.Each(func(t int) {
		shadowed := false
		candidates.Each(func(o int) {
			if o != t && m.DoesMatchSameString(o, t) {
				shadowed = true
			}
		})
		if !shadowed {
			keywords.Add(t)
		}
	})
	keywords.Each(func(t int) {
		for o := 0; o < n; o++ {
			if candidates.Has(o) {
				continue
			}
			allHaveWord := true
			for _, s := range c.StatesWith(t, o) {
				if int(s) >= len(stateTokens) || !stateTokens[s].Has(word) {
					allHaveWord = false
					break
				}
			}
			if allHaveWord {
				continue
			}
			if !m.hasSameStatus(t, word, o) {
				return
			}
		}
		out.Add(t)
	})
	return out
}

func allAlphabetical(c *cursor) bool {
	for _, st := range c.rawTransitions() {
		if st.isSep {
			continue
		}
		ok := true
		st.chars.EachChar(func(r rune) bool {
			if r != '_' && !isAlphabetic(r) {
				ok = false
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// ErrorStateTokens returns the terminals the error-recovery state lists
// (spec 3.6): every token except the non-keyword, non-word tokens that
// conflict with some conflict-free token they are never valid alongside.
func ErrorStateTokens(g *Grammar, word int, keywords ir.TokenSet, m *ConflictMap, c *CoincidentIndex) ir.TokenSet {
	n := len(g.Variables)
	var free ir.TokenSet
	for i := 0; i < n; i++ {
		conflicts := false
		for j := 0; j < n && !conflicts; j++ {
			conflicts = j != i && !c.Contains(i, j) && m.DoesMatchShorterOrLonger(i, j)
		}
		if !conflicts {
			free.Add(i)
		}
	}
	var out ir.TokenSet
	for i := 0; i < n; i++ {
		if !free.Has(i) && !keywords.Has(i) && i != word {
			excluded := false
			free.Each(func(t int) {
				if !excluded && !c.Contains(i, t) && m.DoesConflict(i, t) {
					excluded = true
				}
			})
			if excluded {
				continue
			}
		}
		out.Add(i)
	}
	return out
}
