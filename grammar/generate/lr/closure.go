package lr

import (
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

type followInfo struct {
	lookaheads ir.TokenSet
	reserved   int
	propagates bool
}

type addition struct {
	item item
	info followInfo
}

// closureBuilder precomputes FIRST/LAST sets and, per non-terminal, the
// items its expansion adds to an item set.
type closureBuilder struct {
	g         *prepare.SyntaxGrammar
	inlines   *prepare.InlineMap
	syms      symbols
	first     map[Symbol]ir.TokenSet
	last      map[Symbol]ir.TokenSet
	resFirst  map[Symbol]int
	additions [][]addition
}

func newClosureBuilder(g *prepare.SyntaxGrammar, inlines *prepare.InlineMap, syms symbols) *closureBuilder {
	b := &closureBuilder{g: g, inlines: inlines, syms: syms,
		first: map[Symbol]ir.TokenSet{}, last: map[Symbol]ir.TokenSet{}, resFirst: map[Symbol]int{}}
	self := func(s Symbol) {
		var set ir.TokenSet
		set.Add(syms.index(s))
		b.first[s], b.last[s], b.resFirst[s] = set, set, 0
	}
	for i := 0; i < syms.terminals; i++ {
		self(prepare.Term(i))
	}
	for i := 0; i < syms.externals; i++ {
		self(prepare.Ext(i))
	}
	self(prepare.EndSymbol)

	for i := range g.Variables {
		sym := prepare.NonTerm(i)
		for _, wantLast := range []bool{false, true} {
			var set ir.TokenSet
			reserved := 0
			done := map[Symbol]bool{}
			stack := []Symbol{sym}
			for len(stack) > 0 {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, p := range g.Variables[s.Index].Productions {
					if len(p.Steps) == 0 {
						continue
					}
					st := p.Steps[0]
					if wantLast {
						st = p.Steps[len(p.Steps)-1]
					}
					if st.Symbol.Kind == prepare.Terminal || st.Symbol.Kind == prepare.External {
						set.Add(syms.index(st.Symbol))
					} else if !done[st.Symbol] {
						done[st.Symbol] = true
						stack = append(stack, st.Symbol)
					}
					if !wantLast && st.ReservedSet > reserved {
						reserved = st.ReservedSet
					}
				}
			}
			if wantLast {
				b.last[sym] = set
			} else {
				b.first[sym], b.resFirst[sym] = set, reserved
			}
		}
	}

	b.additions = make([][]addition, len(g.Variables))
	type frame struct {
		v          int
		lookaheads ir.TokenSet
		reserved   int
		propagates bool
	}
	for i := range g.Variables {
		infos := map[int]*followInfo{}
		var order []int
		stack := []frame{{v: i, propagates: true}}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			info := infos[f.v]
			if info == nil {
				info = &followInfo{}
				infos[f.v] = info
				order = append(order, f.v)
			}
			added := info.lookaheads.Union(f.lookaheads)
			if f.reserved > info.reserved {
				info.reserved = f.reserved
				added = true
			}
			if f.propagates && !info.propagates {
				info.propagates = true
				added = true
			}
			if !added {
				continue
			}
			for _, p := range g.Variables[f.v].Productions {
				if len(p.Steps) == 0 || p.Steps[0].Symbol.Kind != prepare.NonTerminal {
					continue
				}
				child := p.Steps[0].Symbol.Index
				if len(p.Steps) > 1 {
					next := p.Steps[1].Symbol
					stack = append(stack, frame{child, b.first[next], b.resFirst[next], false})
				} else {
					stack = append(stack, frame{child, f.lookaheads, f.reserved, f.propagates})
				}
			}
		}
		sort.Ints(order)
		var adds []addition
		for _, v := range order {
			if g.IsInline(prepare.NonTerm(v)) {
				continue
			}
			info := *infos[v]
			for _, p := range g.Variables[v].Productions {
				it := item{variable: v, prod: p}
				if ps := inlines.At(p, 0); ps != nil {
					for _, q := range ps {
						adds = appendAddition(adds, addition{item{variable: v, prod: q}, info})
					}
				} else {
					adds = appendAddition(adds, addition{it, info})
				}
			}
		}
		b.additions[i] = adds
	}
	return b
}

func appendAddition(list []addition, a addition) []addition {
	for _, x := range list {
		if x.item == a.item && x.info.reserved == a.info.reserved && x.info.propagates == a.info.propagates &&
			x.info.lookaheads.Equal(a.info.lookaheads) {
			return list
		}
	}
	return append(list, a)
}

// closure expands the non-terminals after each dot.
func (b *closureBuilder) closure(kernel *itemSet) *itemSet {
	out := &itemSet{}
	for _, e := range kernel.entries {
		if ps := b.inlines.At(e.item.prod, e.item.step); ps != nil {
			for _, p := range ps {
				sub := e
				sub.item.prod = p
				b.add(out, sub)
			}
			continue
		}
		b.add(out, e)
	}
	return out
}

func (b *closureBuilder) add(set *itemSet, e entry) {
	word := b.g.Word
	if st := e.item.next(); st != nil && st.Symbol.Kind == prepare.NonTerminal {
		following, followingReserved := e.lookaheads, e.reserved
		if nx := e.item.successor().next(); nx != nil {
			following, followingReserved = b.first[nx.Symbol], b.resFirst[nx.Symbol]
		}
		for _, a := range b.additions[st.Symbol.Index] {
			x := set.insert(a.item)
			x.lookaheads.Union(a.info.lookaheads)
			if word >= 0 && a.info.lookaheads.Has(word) && a.info.reserved > x.reserved {
				x.reserved = a.info.reserved
			}
			if a.info.propagates {
				x.lookaheads.Union(following)
				if word >= 0 && following.Has(word) && followingReserved > x.reserved {
					x.reserved = followingReserved
				}
			}
		}
	}
	x := set.insert(e.item)
	x.lookaheads.Union(e.lookaheads)
	if e.reserved > x.reserved {
		x.reserved = e.reserved
	}
}
