package lr

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// Result is the unminimized parse table plus what later stages need.
type Result struct {
	Table *Table
	// FollowingTokens[i] is the set of terminals that can follow
	// terminal i (input to the lexical conflict analysis).
	FollowingTokens []ir.TokenSet
	// Warnings are problems that do not stop generation, such as
	// declared conflicts that never arise.
	Warnings []string
}

type auxInfo struct {
	aux     Symbol
	parents []Symbol
}

type queued struct {
	state int
	aux   []auxInfo
}

type reductionInfo struct {
	prec                           prepare.Precedence
	symbols                        []Symbol
	hasLeft, hasRight, hasNonAssoc bool
}

type builder struct {
	g          *prepare.Grammar
	syn        *prepare.SyntaxGrammar
	syms       symbols
	cb         *closureBuilder
	keys       *itemKeys
	stateIDs   map[string]int
	coreIDs    map[string]int
	kernels    []*itemSet
	preceding  [][]Symbol
	queue      []queued
	extraStart []extraStart
	table      *Table
	// usedConflicts[i] reports that declared conflict i was needed.
	usedConflicts []bool
}

type extraStart struct {
	terminal Symbol
	state    int
}

// Build constructs the LR(1) parse table for a prepared grammar, resolving
// conflicts. The error state 0 holds only the extras' actions; see
// PopulateErrorState.
func Build(g *prepare.Grammar) (*Result, error) {
	syn := g.Syntax
	b := &builder{
		g: g, syn: syn,
		syms:     symbols{terminals: len(g.Lexical.Variables), externals: len(syn.Externals)},
		keys:     &itemKeys{ids: map[itemCacheKey]int{}, byK: map[string]int{}},
		stateIDs: map[string]int{},
		coreIDs:  map[string]int{},
		table:    &Table{MaxAliasLength: 1},
	}
	b.usedConflicts = make([]bool, len(syn.ExpectedConflicts))
	b.cb = newClosureBuilder(syn, g.Inlines, b.syms)
	b.table.ProductionInfos = append(b.table.ProductionInfos, ProductionInfo{})

	b.addState(nil, nil, &itemSet{})
	start := &itemSet{}
	e := start.insert(item{variable: -1, prod: startProduction})
	e.lookaheads.Add(b.syms.index(prepare.EndSymbol))
	b.addState(nil, nil, start)

	// Non-terminal extras start after their first terminal.
	byFirst := map[Symbol]*itemSet{}
	var firsts []Symbol
	for _, ex := range syn.Extras {
		if ex.Kind != prepare.NonTerminal {
			continue
		}
		for _, p := range syn.Variables[ex.Index].Productions {
			if len(p.Steps) == 0 {
				continue
			}
			first := p.Steps[0].Symbol
			set := byFirst[first]
			if set == nil {
				set = &itemSet{}
				byFirst[first] = set
				firsts = append(firsts, first)
			}
			x := set.insert(item{variable: ex.Index, prod: p, step: 1})
			x.lookaheads.Add(b.syms.index(prepare.EndOfExtraSymbol))
		}
	}
	sort.Slice(firsts, func(i, j int) bool { return firsts[i].Less(firsts[j]) })
	for _, t := range firsts {
		if t.Kind == prepare.NonTerminal {
			return nil, fmt.Errorf("lr: the non-terminal rule `%s` is used in a non-terminal extra rule, which is not allowed", syn.Variables[t.Index].Name)
		}
		id := b.addState(nil, nil, byFirst[t])
		b.extraStart = append(b.extraStart, extraStart{t, id})
	}

	for len(b.queue) > 0 {
		q := b.queue[0]
		b.queue = b.queue[1:]
		set := b.cb.closure(b.kernels[q.state])
		if err := b.addActions(b.preceding[q.state], q.aux, q.state, set); err != nil {
			return nil, err
		}
	}
	if len(b.table.States) > 65535 {
		return nil, fmt.Errorf("lr: %d parse states exceed the limit of 65535", len(b.table.States))
	}
	res := &Result{Table: b.table, FollowingTokens: b.followingTokens()}
	for i, c := range syn.ExpectedConflicts {
		if b.usedConflicts[i] {
			continue
		}
		var names []string
		for _, s := range c {
			names = append(names, "`"+b.symbolName(s)+"`")
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("the declared conflict [%s] never arises; remove it from `conflicts`", strings.Join(names, ", ")))
	}
	return res, nil
}

func (b *builder) addState(preceding []Symbol, aux []auxInfo, set *itemSet) int {
	k := set.key(b.keys)
	if id, ok := b.stateIDs[k]; ok {
		return id
	}
	ck := set.coreKey(b.keys)
	core, ok := b.coreIDs[ck]
	if !ok {
		core = len(b.coreIDs)
		b.coreIDs[ck] = core
	}
	id := len(b.table.States)
	b.stateIDs[k] = id
	b.kernels = append(b.kernels, set)
	b.preceding = append(b.preceding, append([]Symbol(nil), preceding...))
	b.table.States = append(b.table.States, newState(id, core))
	b.queue = append(b.queue, queued{id, append([]auxInfo(nil), aux...)})
	return id
}

func (b *builder) addActions(preceding []Symbol, aux []auxInfo, stateID int, set *itemSet) error {
	state := b.table.States[stateID]
	termSucc := map[Symbol]*itemSet{}
	nontermSucc := map[Symbol]*itemSet{}
	var conflicts ir.TokenSet
	reductions := map[Symbol]*reductionInfo{}

	for _, e := range set.entries {
		it := e.item
		if st := it.next(); st != nil {
			succ := it.successor()
			var target map[Symbol]*itemSet
			if st.Symbol.Kind == prepare.NonTerminal {
				v := &b.syn.Variables[st.Symbol.Index]
				if v.Kind == ir.Auxiliary {
					aux = append(aux, b.auxInfo(set, st.Symbol))
				}
				if (v.Kind == ir.Hidden || v.Kind == ir.Auxiliary) && len(b.g.Fields[st.Symbol.Index]) > 0 {
					succ.inherited = true
				}
				target = nontermSucc
			} else {
				target = termSucc
			}
			s := target[st.Symbol]
			if s == nil {
				s = &itemSet{}
				target[st.Symbol] = s
			}
			x := s.insert(succ)
			x.lookaheads.Union(e.lookaheads)
			if e.reserved > x.reserved {
				x.reserved = e.reserved
			}
			continue
		}
		sym := prepare.NonTerm(it.variable)
		var action Action
		if it.isAugmented() {
			action = Action{Kind: Accept}
		} else {
			action = Action{Kind: Reduce, Symbol: sym, ChildCount: it.step,
				DynamicPrecedence: it.prod.DynamicPrecedence, ProductionID: b.productionID(it)}
		}
		prec, assoc := it.precedence(), it.associativity()
		var err error
		e.lookaheads.Each(func(la int) {
			if err != nil {
				return
			}
			look := b.syms.symbol(la)
			entry := state.Terminal[look]
			if entry == nil {
				entry = &Entry{Reusable: true}
				state.Terminal[look] = entry
			}
			ri := reductions[look]
			if ri == nil {
				ri = &reductionInfo{}
				reductions[look] = ri
			}
			if len(entry.Actions) == 0 {
				entry.Actions = append(entry.Actions, action)
			} else {
				switch b.comparePrecedence(prec, []Symbol{sym}, ri.prec, ri.symbols) {
				case 1:
					entry.Actions = append(entry.Actions[:0], action)
					conflicts.Remove(la)
					*ri = reductionInfo{}
				case 0:
					entry.Actions = append(entry.Actions, action)
					conflicts.Add(la)
				default:
					return
				}
			}
			ri.prec = prec
			i := sort.Search(len(ri.symbols), func(i int) bool { return !ri.symbols[i].Less(sym) })
			if i == len(ri.symbols) || ri.symbols[i] != sym {
				ri.symbols = append(ri.symbols, Symbol{})
				copy(ri.symbols[i+1:], ri.symbols[i:])
				ri.symbols[i] = sym
			}
			switch assoc {
			case prepare.AssocLeft:
				ri.hasLeft = true
			case prepare.AssocRight:
				ri.hasRight = true
			default:
				ri.hasNonAssoc = true
			}
		})
		if err != nil {
			return err
		}
	}
	aux = dedupAux(aux)

	for _, sym := range sortedKeys(termSucc) {
		next := b.addState(append(preceding, sym), aux, termSucc[sym])
		entry := state.Terminal[sym]
		if entry == nil {
			entry = &Entry{Reusable: true}
			state.Terminal[sym] = entry
		} else if len(entry.Actions) > 0 {
			conflicts.Add(b.syms.index(sym))
		}
		entry.Actions = append(entry.Actions, Action{Kind: Shift, State: next})
	}
	for _, sym := range sortedKeys(nontermSucc) {
		next := b.addState(append(preceding, sym), aux, nontermSucc[sym])
		state.NonTerminal[sym.Index] = Goto{State: next}
	}

	var err error
	conflicts.Each(func(la int) {
		if err == nil {
			look := b.syms.symbol(la)
			err = b.handleConflict(set, state, preceding, aux, look, reductions[look])
		}
	})
	if err != nil {
		return err
	}

	if state.IsEndOfNonTerminalExtra() {
		if len(state.Terminal) > 1 {
			seen := map[int]bool{}
			var names []string
			for _, e := range set.entries {
				if !e.item.isAugmented() && e.item.step > 0 && !seen[e.item.variable] {
					seen[e.item.variable] = true
					names = append(names, b.syn.Variables[e.item.variable].Name)
				}
			}
			return fmt.Errorf("lr: extra rules must have unambiguous endings; conflicting rules: %s", strings.Join(names, ", "))
		}
	} else {
		for _, es := range b.extraStart {
			if _, ok := state.Terminal[es.terminal]; !ok {
				state.Terminal[es.terminal] = &Entry{Reusable: true, Actions: []Action{{Kind: Shift, State: es.state}}}
			}
		}
		for _, ex := range b.syn.Extras {
			if ex.Kind == prepare.NonTerminal {
				state.NonTerminal[ex.Index] = Goto{Extra: true}
			} else if _, ok := state.Terminal[ex]; !ok {
				state.Terminal[ex] = &Entry{Reusable: true, Actions: []Action{{Kind: ShiftExtra}}}
			}
		}
	}

	if w := b.syn.Word; w >= 0 {
		best := -1
		for _, e := range set.entries {
			if st := e.item.next(); st != nil {
				if st.Symbol == prepare.Term(w) && st.ReservedSet > best {
					best = st.ReservedSet
				}
			} else if e.lookaheads.Has(w) && e.reserved > best {
				best = e.reserved
			}
		}
		if best >= 0 && best < len(b.syn.ReservedWordSets) {
			var rw ir.TokenSet
			for _, s := range b.syn.ReservedWordSets[best] {
				if s.Kind == prepare.Terminal {
					rw.Add(s.Index)
				}
			}
			state.ReservedWords = rw
		}
	}
	return nil
}

func sortedKeys(m map[Symbol]*itemSet) []Symbol {
	out := make([]Symbol, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

func dedupAux(list []auxInfo) []auxInfo {
	var out []auxInfo
	for _, a := range list {
		if n := len(out); n > 0 && auxEqual(out[n-1], a) {
			continue
		}
		out = append(out, a)
	}
	return out
}

func auxEqual(a, b auxInfo) bool {
	if a.aux != b.aux || len(a.parents) != len(b.parents) {
		return false
	}
	for i := range a.parents {
		if a.parents[i] != b.parents[i] {
			return false
		}
	}
	return true
}

func (b *builder) auxInfo(set *itemSet, sym Symbol) auxInfo {
	info := auxInfo{aux: sym}
	for _, e := range set.entries {
		if st := e.item.next(); st != nil && st.Symbol == sym && !e.item.isAugmented() &&
			b.syn.Variables[e.item.variable].Kind != ir.Auxiliary {
			info.parents = append(info.parents, prepare.NonTerm(e.item.variable))
		}
	}
	return info
}

// comparePrecedence orders two precedences: integers numerically (unless
// both are zero or absent), otherwise by the first `precedences` list that
// mentions both (earlier entries are stronger).
func (b *builder) comparePrecedence(left prepare.Precedence, leftSyms []Symbol, right prepare.Precedence, rightSyms []Symbol) int {
	li, ri := left.Kind == prepare.PrecInt, right.Kind == prepare.PrecInt
	switch {
	case li && ri && (left.Int != 0 || right.Int != 0):
		return cmp.Compare(left.Int, right.Int)
	case li && right.Kind == prepare.PrecNone && left.Int != 0:
		return cmp.Compare(left.Int, 0)
	case left.Kind == prepare.PrecNone && ri && right.Int != 0:
		return cmp.Compare(0, right.Int)
	}
	matches := func(e prepare.PrecedenceEntry, p prepare.Precedence, syms []Symbol) bool {
		if !e.IsSymbol {
			return p.Kind == prepare.PrecName && p.Name == e.Name
		}
		for _, s := range syms {
			if b.syn.Variables[s.Index].Name == e.Name {
				return true
			}
		}
		return false
	}
	for _, list := range b.syn.PrecedenceOrderings {
		sawLeft, sawRight := false, false
		for _, e := range list {
			if matches(e, left, leftSyms) {
				sawLeft = true
				if sawRight {
					return -1
				}
			} else if matches(e, right, rightSyms) {
				sawRight = true
				if sawLeft {
					return 1
				}
			}
		}
	}
	return 0
}

func (b *builder) productionID(it item) int {
	info := ProductionInfo{Fields: map[string][]FieldLocation{}}
	for i, st := range it.prod.Steps {
		info.Aliases = append(info.Aliases, st.Alias)
		if st.Field != "" {
			info.Fields[st.Field] = append(info.Fields[st.Field], FieldLocation{Index: i})
		}
		if st.Symbol.Kind == prepare.NonTerminal {
			k := b.syn.Variables[st.Symbol.Index].Kind
			if k == ir.Hidden || k == ir.Auxiliary {
				for _, f := range b.g.Fields[st.Symbol.Index] {
					info.Fields[f] = append(info.Fields[f], FieldLocation{Index: i, Inherited: true})
				}
			}
		}
	}
	for len(info.Aliases) > 0 && info.Aliases[len(info.Aliases)-1] == nil {
		info.Aliases = info.Aliases[:len(info.Aliases)-1]
	}
	if len(it.prod.Steps) > b.table.MaxAliasLength {
		b.table.MaxAliasLength = len(it.prod.Steps)
	}
	for i := range b.table.ProductionInfos {
		if b.table.ProductionInfos[i].equal(&info) {
			return i
		}
	}
	b.table.ProductionInfos = append(b.table.ProductionInfos, info)
	return len(b.table.ProductionInfos) - 1
}

// followingTokens computes, for each terminal, the terminals that can
// follow it in some production (extras may follow anything, and anything
// may follow an extra).
func (b *builder) followingTokens() []ir.TokenSet {
	n := b.syms.terminals
	out := make([]ir.TokenSet, n)
	terminalsOnly := func(s ir.TokenSet) ir.TokenSet {
		var t ir.TokenSet
		s.Each(func(i int) {
			if i < n {
				t.Add(i)
			}
		})
		return t
	}
	addReserved := func(dst *ir.TokenSet, id int) {
		if id < len(b.syn.ReservedWordSets) {
			for _, s := range b.syn.ReservedWordSets[id] {
				if s.Kind == prepare.Terminal {
					dst.Add(s.Index)
				}
			}
		}
	}
	visit := func(p *prepare.Production) {
		for i := 1; i < len(p.Steps); i++ {
			left := b.cb.last[p.Steps[i-1].Symbol]
			right := terminalsOnly(b.cb.first[p.Steps[i].Symbol])
			rid := b.cb.resFirst[p.Steps[i].Symbol]
			left.Each(func(t int) {
				if t < n {
					out[t].Union(right)
					addReserved(&out[t], rid)
				}
			})
		}
	}
	for _, v := range b.syn.Variables {
		for _, p := range v.Productions {
			visit(p)
		}
	}
	if b.g.Inlines != nil {
		for _, p := range b.g.Inlines.Productions {
			visit(p)
		}
	}
	var all ir.TokenSet
	for i := 0; i < n; i++ {
		all.Add(i)
	}
	for _, ex := range b.syn.Extras {
		if ex.Kind == prepare.Terminal {
			for i := range out {
				out[i].Add(ex.Index)
			}
			out[ex.Index] = all.Clone()
		}
	}
	return out
}
