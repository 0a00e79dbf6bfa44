package lex

import (
	"cmp"
	"slices"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
)

// Accept values of a LexState besides token indices.
const (
	AcceptNone = -1 // the state accepts nothing
	AcceptEOF  = -2 // the state accepts end of input (ts_builtin_sym_end)
)

// Advance is one transition of a lex state.
type Advance struct {
	Chars charset.Set
	State int
	// InMainToken is false for separator transitions (rendered as SKIP).
	InMainToken bool
}

// LexState is one DFA state.
type LexState struct {
	// Accept is the token index accepted here, AcceptEOF or AcceptNone.
	Accept int
	// EOF reports an `if (eof) ADVANCE(EOFState)` action.
	EOF      bool
	EOFState int
	Advances []Advance
}

// Table is a lexer DFA.
type Table struct {
	States []LexState
	g      *Grammar
	sets   *largeSets
}

// LexStateInput is what one parse state needs from the lexer.
type LexStateInput struct {
	// Tokens are the valid terminals (keywords still listed; lex replaces
	// them by the word token).
	Tokens ir.TokenSet
	// EOF reports that end of input is valid here.
	EOF bool
}

// BuildLexTables merges compatible parse states into lex states (spec 3.3),
// builds and minimizes the main DFA, and builds the keyword DFA (nil
// without a word token). lexStateOf[p] is the entry state of parse state p.
func BuildLexTables(g *Grammar, inputs []LexStateInput, word int, keywords ir.TokenSet,
	m *ConflictMap, c *CoincidentIndex) (main, keyword *Table, lexStateOf []int) {
	sets := &largeSets{}
	if word >= 0 {
		kb := newTableBuilder(g)
		kb.addEntry(keywords, false)
		keyword = &Table{States: kb.states, g: g, sets: sets}
	}

	type entry struct {
		tokens ir.TokenSet
		eof    bool
		parse  []int
	}
	var entries []*entry
	for p, in := range inputs {
		var toks ir.TokenSet
		in.Tokens.Each(func(t int) {
			if word >= 0 && keywords.Has(t) {
				toks.Add(word)
			} else {
				toks.Add(t)
			}
		})
		merged := false
		for _, e := range entries {
			if mergeTokenSet(g, e.tokens, toks, m, c) {
				e.tokens.Union(toks)
				e.eof = e.eof || in.EOF
				e.parse = append(e.parse, p)
				merged = true
				break
			}
		}
		if !merged {
			entries = append(entries, &entry{tokens: toks, eof: in.EOF, parse: []int{p}})
		}
	}

	b := newTableBuilder(g)
	lexStateOf = make([]int, len(inputs))
	for _, e := range entries {
		id := b.addEntry(e.tokens, e.eof)
		for _, p := range e.parse {
			lexStateOf[p] = id
		}
	}
	main = &Table{States: b.states, g: g, sets: sets}
	main.minimize(lexStateOf)
	main.sortStates(lexStateOf)
	sets.collect(g)
	return main, keyword, lexStateOf
}

// mergeTokenSet reports whether the token sets of two parse states can
// share a lex state: no token present in only one of them conflicts with,
// is a prefix of, or (unless already coincident) overlaps a token of the other.
func mergeTokenSet(g *Grammar, a, b ir.TokenSet, m *ConflictMap, c *CoincidentIndex) bool {
	for i := range g.Variables {
		var other ir.TokenSet
		switch {
		case a.Has(i) && !b.Has(i):
			other = b
		case !a.Has(i) && b.Has(i):
			other = a
		default:
			continue
		}
		ok := true
		other.Each(func(e int) {
			if !ok {
				return
			}
			if m.DoesConflict(i, e) || m.DoesMatchPrefix(i, e) {
				ok = false
				return
			}
			if !c.Contains(i, e) && (m.DoesOverlap(e, i) || m.DoesOverlap(i, e)) {
				ok = false
			}
		})
		if !ok {
			return false
		}
	}
	return true
}

type tableBuilder struct {
	g      *Grammar
	cur    *cursor
	states []LexState
	queue  []queued
	ids    map[string]int
}

type queued struct {
	id     int
	states []int32
	eof    bool
}

func newTableBuilder(g *Grammar) *tableBuilder {
	return &tableBuilder{g: g, cur: newCursor(g.nfa), ids: map[string]int{}}
}

// addEntry adds (or finds) the DFA state lexing tokens (plus EOF) and
// builds everything reachable from it.
func (b *tableBuilder) addEntry(tokens ir.TokenSet, eof bool) int {
	var starts []int32
	tokens.Each(func(t int) {
		if t < len(b.g.Variables) {
			starts = append(starts, b.g.Variables[t].startState)
		}
	})
	id := b.add(starts, eof)
	for len(b.queue) > 0 {
		q := b.queue[0]
		b.queue = b.queue[1:]
		b.populate(q)
	}
	return id
}

func (b *tableBuilder) add(nfaStates []int32, eof bool) int {
	b.cur.reset(nfaStates)
	k := statesKey(b.cur.states)
	if eof {
		k += "e"
	}
	if id, ok := b.ids[k]; ok {
		return id
	}
	id := len(b.states)
	b.states = append(b.states, LexState{Accept: AcceptNone})
	b.ids[k] = id
	b.queue = append(b.queue, queued{id: id, states: slices.Clone(b.cur.states), eof: eof})
	return id
}

func (b *tableBuilder) populate(q queued) {
	b.cur.states = append(b.cur.states[:0], q.states...)
	var done *completion
	for _, comp := range b.cur.completions() {
		if done != nil && preferToken(b.g, *done, comp) {
			continue
		}
		cc := comp
		done = &cc
	}
	ts := b.cur.transitions()
	hasSep := b.cur.hasSeparator()
	st := LexState{Accept: AcceptNone}
	// The CLI decides "accepts EOF" from the cursor left by the last state
	// lookup below; track the same.
	lastEmpty := len(q.states) == 0
	if q.eof {
		st.EOF = true
		st.EOFState = b.add(nil, false)
		lastEmpty = true
	}
	for i := range ts {
		t := &ts[i]
		if done != nil && !preferTransition(b.g, t, *done, hasSep) {
			continue
		}
		next := b.add(t.states, q.eof && t.isSep)
		lastEmpty = len(b.cur.states) == 0
		st.Advances = append(st.Advances, Advance{Chars: t.chars, State: next, InMainToken: !t.isSep})
	}
	if done != nil {
		st.Accept = done.variable
	} else if lastEmpty {
		st.Accept = AcceptEOF
	}
	b.states[q.id] = st
}

// minimize merges equivalent states (same accept, EOF presence and
// transition characters, and transitions into equivalent states), keeping
// state 0 alone, as the CLI does.
func (t *Table) minimize(lexStateOf []int) {
	type sigKey string
	sig := func(i int, s *LexState) sigKey {
		var b []byte
		if i == 0 {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		a := int32(s.Accept)
		b = append(b, byte(a), byte(a>>8), byte(a>>16), byte(a>>24))
		if s.EOF {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		for _, adv := range s.Advances {
			for _, r := range adv.Chars.RawRanges() {
				b = append(b, byte(r.Start), byte(r.Start>>8), byte(r.Start>>16), byte(r.End), byte(r.End>>8), byte(r.End>>16))
			}
			if adv.InMainToken {
				b = append(b, 0xFE)
			} else {
				b = append(b, 0xFD)
			}
		}
		return sigKey(b)
	}
	bySig := map[sigKey][]int{}
	var order []sigKey
	for i := range t.States {
		k := sig(i, &t.States[i])
		if _, ok := bySig[k]; !ok {
			order = append(order, k)
		}
		bySig[k] = append(bySig[k], i)
	}
	groups := make([][]int, 0, len(order))
	for _, k := range order {
		groups = append(groups, bySig[k])
	}
	slices.SortFunc(groups, func(a, b []int) int { return slices.Compare(a, b) })
	for gi, grp := range groups {
		if slices.Contains(grp, 0) {
			groups[0], groups[gi] = groups[gi], groups[0]
			break
		}
	}
	groupOf := make([]int, len(t.States))
	for gi, grp := range groups {
		for _, s := range grp {
			groupOf[s] = gi
		}
	}
	differ := func(a, b *LexState) bool {
		for i := 0; i < len(a.Advances) && i < len(b.Advances); i++ {
			if groupOf[a.Advances[i].State] != groupOf[b.Advances[i].State] {
				return true
			}
		}
		return false
	}
	for splitGroups(t.States, &groups, groupOf, 1, differ) {
	}
	out := make([]LexState, len(groups))
	for gi, grp := range groups {
		s := t.States[grp[0]]
		s.Advances = slices.Clone(s.Advances)
		for i := range s.Advances {
			s.Advances[i].State = groupOf[s.Advances[i].State]
		}
		if s.EOF {
			s.EOFState = groupOf[s.EOFState]
		}
		out[gi] = s
	}
	for p := range lexStateOf {
		lexStateOf[p] = groupOf[lexStateOf[p]]
	}
	t.States = out
}

// splitGroups splits every group from start on (including groups split off
// on the way) so that no group holds two states differ separates: each
// state not yet split off removes the later states it differs from, which
// form one new group in the order found.
func splitGroups(states []LexState, groups *[][]int, groupOf []int, start int, differ func(a, b *LexState) bool) bool {
	result := false
	for gi := start; gi < len(*groups); gi++ {
		ids := (*groups)[gi]
		var split []int
		isSplit := map[int]bool{}
		for i := 0; i < len(ids); i++ {
			if isSplit[ids[i]] {
				continue
			}
			for j := i + 1; j < len(ids); j++ {
				if isSplit[ids[j]] {
					continue
				}
				if differ(&states[ids[i]], &states[ids[j]]) {
					split = append(split, ids[j])
					isSplit[ids[j]] = true
				}
			}
		}
		if len(split) > 0 {
			result = true
			kept := ids[:0:0]
			for _, s := range ids {
				if !isSplit[s] {
					kept = append(kept, s)
				}
			}
			(*groups)[gi] = kept
			ng := len(*groups)
			for _, s := range split {
				groupOf[s] = ng
			}
			*groups = append(*groups, split)
		}
	}
	return result
}

// compareStates is the CLI's derived order on lex states: accept action
// (none < EOF < tokens by index), EOF action, then transitions.
func compareStates(a, b *LexState) int {
	rank := func(acc int) int {
		switch acc {
		case AcceptNone:
			return -2
		case AcceptEOF:
			return -1
		}
		return acc
	}
	if c := cmp.Compare(rank(a.Accept), rank(b.Accept)); c != 0 {
		return c
	}
	if a.EOF != b.EOF {
		if !a.EOF {
			return -1
		}
		return 1
	}
	if a.EOF {
		if c := cmp.Compare(a.EOFState, b.EOFState); c != 0 {
			return c
		}
	}
	for i := 0; i < len(a.Advances) && i < len(b.Advances); i++ {
		x, y := &a.Advances[i], &b.Advances[i]
		if c := x.Chars.Compare(y.Chars); c != 0 {
			return c
		}
		if c := cmp.Compare(x.State, y.State); c != 0 {
			return c
		}
		if x.InMainToken != y.InMainToken {
			if !x.InMainToken {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(a.Advances), len(b.Advances))
}

// sortStates orders states 1.. by compareStates (stable), keeping state 0.
func (t *Table) sortStates(lexStateOf []int) {
	order := make([]int, len(t.States))
	for i := range order {
		order[i] = i
	}
	if len(order) > 1 {
		slices.SortStableFunc(order[1:], func(a, b int) int { return compareStates(&t.States[a], &t.States[b]) })
	}
	newID := make([]int, len(order))
	for n, old := range order {
		newID[old] = n
	}
	out := make([]LexState, len(order))
	for n, old := range order {
		s := t.States[old]
		for i := range s.Advances {
			s.Advances[i].State = newID[s.Advances[i].State]
		}
		if s.EOF {
			s.EOFState = newID[s.EOFState]
		}
		out[n] = s
	}
	for p := range lexStateOf {
		lexStateOf[p] = newID[lexStateOf[p]]
	}
	t.States = out
}

// largeCharacterRangeCount is the CLI's threshold for a static range table.
const largeCharacterRangeCount = 8

// largeSet is a character set worth a static TSCharacterRange table:
// token >= 0 names the token whose DFA produced it, -1 a separator set.
type largeSet struct {
	token int
	chars charset.Set
	name  string
	used  bool
}

type largeSets struct {
	sets      []largeSet
	collected bool
	named     bool
}

// collect finds the large sets the CLI precomputes: per token, each DFA
// state's union of main-token transitions and each big separator set.
func (ls *largeSets) collect(g *Grammar) {
	if ls.collected {
		return
	}
	ls.collected = true
	has := func(s charset.Set) bool {
		for _, e := range ls.sets {
			if e.chars.Equal(s) {
				return true
			}
		}
		return false
	}
	for i := range g.Variables {
		b := newTableBuilder(g)
		var one ir.TokenSet
		one.Add(i)
		b.addEntry(one, false)
		for _, st := range b.states {
			chars := charset.Empty()
			for _, adv := range st.Advances {
				if adv.InMainToken {
					chars = chars.Union(adv.Chars)
					continue
				}
				if adv.Chars.RangeCount() > largeCharacterRangeCount && !has(adv.Chars) {
					ls.sets = append(ls.sets, largeSet{token: -1, chars: adv.Chars})
				}
			}
			if chars.RangeCount() > largeCharacterRangeCount && !has(chars) {
				ls.sets = append(ls.sets, largeSet{token: i, chars: chars})
			}
		}
	}
}
