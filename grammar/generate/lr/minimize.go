package lr

import (
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// Minimize merges compatible states, removes unit reductions through
// hidden rules, drops unreachable states and orders the rest by
// descending entry count (states 0 and 1 stay first).
func Minimize(t *Table, g *prepare.Grammar, rel TokenRelations, keywords ir.TokenSet) {
	m := &minimizer{t: t, g: g, syn: g.Syntax, rel: rel, keywords: keywords}
	m.mergeCompatibleStates()
	m.removeUnitReductions()
	m.removeUnusedStates()
	m.reorderByDescendingSize()
}

type minimizer struct {
	t        *Table
	g        *prepare.Grammar
	syn      *prepare.SyntaxGrammar
	rel      TokenRelations
	keywords ir.TokenSet
}

func sortedTerminals(s *State) []Symbol {
	out := make([]Symbol, 0, len(s.Terminal))
	for k := range s.Terminal {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// splitGroups splits every group from start on so no group holds two
// states that differ; each state stays unless it differs from a state that
// stayed before it; the others form a new group ordered by the state they
// were split from, then by position. It reports whether anything split.
func splitGroups(groups *[][]int, groupOf []int, differ func(a, b int) bool) bool {
	result := false
	for gi := 0; gi < len(*groups); gi++ {
		ids := (*groups)[gi]
		if len(ids) < 2 {
			continue
		}
		var kept []int
		type moved struct{ splitter, pos, id int }
		var out []moved
		for pos, id := range ids {
			splitter := -1
			for k, keptID := range kept {
				if differ(keptID, id) {
					splitter = k
					break
				}
			}
			if splitter < 0 {
				kept = append(kept, id)
			} else {
				out = append(out, moved{splitter, pos, id})
			}
		}
		if len(out) == 0 {
			continue
		}
		result = true
		sort.SliceStable(out, func(i, j int) bool { return out[i].splitter < out[j].splitter })
		(*groups)[gi] = kept
		newID := len(*groups)
		var ng []int
		for _, m := range out {
			groupOf[m.id] = newID
			ng = append(ng, m.id)
		}
		*groups = append(*groups, ng)
	}
	return result
}

func (m *minimizer) mergeCompatibleStates() {
	states := m.t.States
	coreCount := 0
	for _, s := range states {
		if s.CoreID+1 > coreCount {
			coreCount = s.CoreID + 1
		}
	}
	groups := make([][]int, coreCount)
	groupOf := make([]int, len(states))
	for i, s := range states {
		groups[s.CoreID] = append(groups[s.CoreID], i)
		groupOf[i] = s.CoreID
	}
	sorted := make([][]Symbol, len(states))
	for i, s := range states {
		sorted[i] = sortedTerminals(s)
	}
	splitGroups(&groups, groupOf, func(a, b int) bool { return m.statesConflict(a, b, sorted, groupOf) })
	for splitGroups(&groups, groupOf, func(a, b int) bool { return m.successorsDiffer(a, b, groupOf) }) {
	}

	find := func(id int) int {
		for gi, g := range groups {
			for _, x := range g {
				if x == id {
					return gi
				}
			}
		}
		return -1
	}
	swap := func(i, j int) {
		if i == j {
			return
		}
		groups[i], groups[j] = groups[j], groups[i]
		for _, x := range groups[i] {
			groupOf[x] = i
		}
		for _, x := range groups[j] {
			groupOf[x] = j
		}
	}
	swap(find(0), 0)
	swap(find(1), 1)

	newStates := make([]*State, len(groups))
	for gi, ids := range groups {
		s := states[ids[0]]
		for _, other := range ids[1:] {
			o := states[other]
			for k, e := range o.Terminal {
				s.Terminal[k] = e
			}
			for k, g := range o.NonTerminal {
				s.NonTerminal[k] = g
			}
			s.ReservedWords.Union(o.ReservedWords)
			for sym := range s.Terminal {
				if sym.Kind == prepare.Terminal {
					s.ReservedWords.Remove(sym.Index)
				}
			}
		}
		s.updateReferences(func(id int) int { return groupOf[id] })
		newStates[gi] = s
	}
	m.t.States = newStates
}

func (m *minimizer) statesConflict(a, b int, sorted [][]Symbol, groupOf []int) bool {
	s1, s2 := m.t.States[a], m.t.States[b]
	k1, k2 := sorted[a], sorted[b]
	i, j := 0, 0
	for i < len(k1) || j < len(k2) {
		var c int
		switch {
		case i < len(k1) && j < len(k2):
			c = k1[i].Compare(k2[j])
		case i < len(k1):
			c = -1
		default:
			c = 1
		}
		switch c {
		case 0:
			if m.entriesConflict(s1.Terminal[k1[i]], s2.Terminal[k2[j]], groupOf) {
				return true
			}
			i++
			j++
		case -1:
			if m.tokenConflicts(s2, k2, k1[i]) {
				return true
			}
			i++
		default:
			if m.tokenConflicts(s1, k1, k2[j]) {
				return true
			}
			j++
		}
	}
	return false
}

func (m *minimizer) entriesConflict(e1, e2 *Entry, groupOf []int) bool {
	if len(e1.Actions) != len(e2.Actions) {
		return true
	}
	for i := range e1.Actions {
		a1, a2 := e1.Actions[i], e2.Actions[i]
		if a1.Kind == Shift && a2.Kind == Shift {
			if groupOf[a1.State] == groupOf[a2.State] && a1.Repetition == a2.Repetition {
				continue
			}
			return true
		}
		if a1 != a2 {
			return true
		}
	}
	return false
}

func (m *minimizer) tokenConflicts(other *State, otherKeys []Symbol, tok Symbol) bool {
	if tok.Kind == prepare.EndOfNonTerminalExtra || tok.Kind == prepare.External {
		return true
	}
	if tok.Kind == prepare.Terminal && other.ReservedWords.Has(tok.Index) {
		return false
	}
	for _, e := range m.syn.Externals {
		if e.Internal >= 0 && tok == prepare.Term(e.Internal) {
			return true
		}
	}
	if tok.Kind != prepare.Terminal && tok.Kind != prepare.End {
		return false
	}
	// End-of-input is checked as lexical token 0 (its index), as the CLI
	// does; this keeps states that differ in EOF apart when token 0
	// conflicts.
	word := m.syn.Word
	isTerm := tok.Kind == prepare.Terminal
	isWord := isTerm && word >= 0 && tok.Index == word
	isKeyword := isTerm && word >= 0 && m.keywords.Has(tok.Index)
	for _, k := range otherKeys {
		if k.Kind != prepare.Terminal {
			continue
		}
		if isKeyword && k.Index == word {
			continue
		}
		if isWord && m.keywords.Has(k.Index) {
			continue
		}
		if m.rel.DoesConflict(tok.Index, k.Index) {
			return true
		}
	}
	return false
}

func (m *minimizer) successorsDiffer(a, b int, groupOf []int) bool {
	s1, s2 := m.t.States[a], m.t.States[b]
	for sym, e1 := range s1.Terminal {
		e2, ok := s2.Terminal[sym]
		if !ok {
			continue
		}
		l1, l2 := e1.Actions[len(e1.Actions)-1], e2.Actions[len(e2.Actions)-1]
		if l1.Kind == Shift && l2.Kind == Shift && groupOf[l1.State] != groupOf[l2.State] {
			return true
		}
	}
	for k, g1 := range s1.NonTerminal {
		g2, ok := s2.NonTerminal[k]
		if !ok {
			continue
		}
		if g1.Extra != g2.Extra {
			return true
		}
		if !g1.Extra && groupOf[g1.State] != groupOf[g2.State] {
			return true
		}
	}
	return false
}

func (m *minimizer) removeUnitReductions() {
	aliased := map[Symbol]bool{}
	for _, v := range m.syn.Variables {
		for _, p := range v.Productions {
			for _, st := range p.Steps {
				if st.Alias != nil {
					aliased[st.Symbol] = true
				}
			}
		}
	}
	unit := map[int]Symbol{}
	for i, s := range m.t.States {
		only := true
		var sym *Symbol
	entries:
		for _, k := range sortedTerminals(s) {
			for _, a := range s.Terminal[k].Actions {
				if a.Kind == ShiftExtra {
					continue
				}
				if a.Kind == Reduce && a.ChildCount == 1 && a.ProductionID == 0 {
					_, hasAlias := m.g.DefaultAliases[a.Symbol]
					if !hasAlias && !m.syn.IsSupertype(a.Symbol) && !m.syn.IsExtra(a.Symbol) && !aliased[a.Symbol] &&
						m.syn.Variables[a.Symbol.Index].Kind != ir.Named && (sym == nil || *sym == a.Symbol) {
						x := a.Symbol
						sym = &x
						continue
					}
				}
				only = false
				break entries
			}
		}
		if sym != nil && only {
			unit[i] = *sym
		}
	}
	if len(unit) == 0 {
		return
	}
	for _, s := range m.t.States {
		// Each pass follows one more unit reduction; a chain is never longer
		// than the number of states, which also guards against cycles.
		for changed, pass := true, 0; changed && pass <= len(m.t.States); pass++ {
			changed = false
			target := func(id int) int {
				if sym, ok := unit[id]; ok {
					if g, ok := s.NonTerminal[sym.Index]; ok && !g.Extra && g.State != id {
						return g.State
					}
				}
				return id
			}
			type upd struct {
				e   *Entry
				i   int
				k   int
				val int
			}
			var ups []upd
			for _, e := range s.Terminal {
				for i, a := range e.Actions {
					if a.Kind == Shift {
						if v := target(a.State); v != a.State {
							ups = append(ups, upd{e: e, i: i, val: v})
						}
					}
				}
			}
			for k, g := range s.NonTerminal {
				if !g.Extra {
					if v := target(g.State); v != g.State {
						ups = append(ups, upd{i: -1, k: k, val: v})
					}
				}
			}
			for _, u := range ups {
				changed = true
				if u.e != nil {
					u.e.Actions[u.i].State = u.val
				} else {
					s.NonTerminal[u.k] = Goto{State: u.val}
				}
			}
		}
	}
}

func (m *minimizer) removeUnusedStates() {
	n := len(m.t.States)
	used := make([]bool, n)
	used[0], used[1] = true, true
	for _, s := range m.t.States {
		for _, e := range s.Terminal {
			for _, a := range e.Actions {
				if a.Kind == Shift {
					used[a.State] = true
				}
			}
		}
		for _, g := range s.NonTerminal {
			if !g.Extra {
				used[g.State] = true
			}
		}
	}
	repl := make([]int, n)
	removed := 0
	for i := 0; i < n; i++ {
		repl[i] = i - removed
		if !used[i] {
			removed++
		}
	}
	var out []*State
	for i, s := range m.t.States {
		if used[i] {
			s.updateReferences(func(id int) int { return repl[id] })
			out = append(out, s)
		}
	}
	m.t.States = out
}

func (m *minimizer) reorderByDescendingSize() {
	n := len(m.t.States)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	size := func(i int) int { return len(m.t.States[i].Terminal) + len(m.t.States[i].NonTerminal) }
	key := func(i int) int64 {
		if i <= 1 {
			return int64(i) - 1_000_000
		}
		return -int64(size(i))
	}
	// Equal-sized states keep the relative order the CLI's sort gives them,
	// so state numbers match official parsers.
	cliSort(order, key)
	newOf := make([]int, n)
	for newID, old := range order {
		newOf[old] = newID
	}
	out := make([]*State, n)
	for newID, old := range order {
		s := m.t.States[old]
		s.updateReferences(func(id int) int { return newOf[id] })
		s.ID = newID
		out[newID] = s
	}
	m.t.States = out
}
