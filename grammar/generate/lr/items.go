package lr

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// symbols maps lookahead symbols (terminals, externals, end markers) to
// dense indices for token sets: terminals first, then externals, then
// end-of-input and end-of-extra.
type symbols struct {
	terminals, externals int
}

func (s symbols) index(sym Symbol) int {
	switch sym.Kind {
	case prepare.Terminal:
		return sym.Index
	case prepare.External:
		return s.terminals + sym.Index
	case prepare.End:
		return s.terminals + s.externals
	case prepare.EndOfNonTerminalExtra:
		return s.terminals + s.externals + 1
	}
	panic(fmt.Sprintf("lr: non-terminal %v in a lookahead set", sym))
}

func (s symbols) symbol(i int) Symbol {
	switch {
	case i < s.terminals:
		return prepare.Term(i)
	case i < s.terminals+s.externals:
		return prepare.Ext(i - s.terminals)
	case i == s.terminals+s.externals:
		return prepare.EndSymbol
	}
	return prepare.EndOfExtraSymbol
}

// item is a production with a dot position. variable is -1 for the
// augmented start item.
type item struct {
	variable  int
	prod      *prepare.Production
	step      int
	inherited bool // consumed a hidden child that carries fields
}

var startProduction = &prepare.Production{Steps: []prepare.Step{{Symbol: prepare.NonTerm(0)}}}

func (it item) isDone() bool      { return it.step == len(it.prod.Steps) }
func (it item) isAugmented() bool { return it.variable < 0 }

func (it item) next() *prepare.Step {
	if it.step < len(it.prod.Steps) {
		return &it.prod.Steps[it.step]
	}
	return nil
}

func (it item) prev() *prepare.Step {
	if it.step > 0 {
		return &it.prod.Steps[it.step-1]
	}
	return nil
}

func (it item) precedence() prepare.Precedence {
	if p := it.prev(); p != nil {
		return p.Prec
	}
	return prepare.Precedence{}
}

func (it item) associativity() prepare.Assoc {
	if p := it.prev(); p != nil {
		return p.Assoc
	}
	return prepare.AssocNone
}

func (it item) successor() item {
	it.step++
	return it
}

func varOrder(v int) int {
	if v < 0 {
		return math.MaxInt
	}
	return v
}

// compareItems is tree-sitter's item order: step, rule, dynamic
// precedence, length, precedence and associativity before the dot, then
// the consumed steps' aliases and fields and the remaining steps.
func compareItems(a, b item) int {
	if c := cmp.Compare(a.step, b.step); c != 0 {
		return c
	}
	if c := cmp.Compare(varOrder(a.variable), varOrder(b.variable)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.prod.DynamicPrecedence, b.prod.DynamicPrecedence); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.prod.Steps), len(b.prod.Steps)); c != 0 {
		return c
	}
	if c := a.precedence().Compare(b.precedence()); c != 0 {
		return c
	}
	if c := cmp.Compare(int(a.associativity()), int(b.associativity())); c != 0 {
		return c
	}
	for i := range a.prod.Steps {
		x, y := &a.prod.Steps[i], &b.prod.Steps[i]
		var c int
		if i < a.step {
			c = x.Alias.Compare(y.Alias)
			if c == 0 {
				c = strings.Compare(x.Field, y.Field)
			}
		} else {
			c = x.Compare(y)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// itemKeys interns item identities: two items get the same id exactly
// when tree-sitter considers them equal.
type itemKeys struct {
	ids map[itemCacheKey]int
	byK map[string]int
}

type itemCacheKey struct {
	variable  int
	prod      *prepare.Production
	step      int
	inherited bool
}

func (k *itemKeys) id(it item) int {
	ck := itemCacheKey{it.variable, it.prod, it.step, it.inherited}
	if id, ok := k.ids[ck]; ok {
		return id
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d|%d|%d|%t|%s|%d|", it.variable, it.step, it.prod.DynamicPrecedence, len(it.prod.Steps),
		it.inherited, it.precedence(), it.associativity())
	for i, s := range it.prod.Steps {
		if i < it.step {
			writeAlias(&b, s.Alias)
			fmt.Fprintf(&b, "%q", s.Field)
			if it.inherited {
				fmt.Fprintf(&b, "%d.%d", s.Symbol.Kind, s.Symbol.Index)
			}
		} else {
			fmt.Fprintf(&b, "%d.%d/%d.%d.%q/%d/", s.Symbol.Kind, s.Symbol.Index, s.Prec.Kind, s.Prec.Int, s.Prec.Name, s.Assoc)
			writeAlias(&b, s.Alias)
			fmt.Fprintf(&b, "%q/%d", s.Field, s.ReservedSet)
		}
		b.WriteByte(';')
	}
	key := b.String()
	id, ok := k.byK[key]
	if !ok {
		id = len(k.byK)
		k.byK[key] = id
	}
	k.ids[ck] = id
	return id
}

func writeAlias(b *strings.Builder, a *prepare.Alias) {
	if a == nil {
		b.WriteString("-")
		return
	}
	fmt.Fprintf(b, "%q/%t", a.Value, a.Named)
}

// entry is an item with its lookaheads.
type entry struct {
	item       item
	lookaheads ir.TokenSet
	reserved   int // following reserved-word set
}

// itemSet is a sorted list of entries.
type itemSet struct {
	entries []entry
}

func (s *itemSet) insert(it item) *entry {
	i := sort.Search(len(s.entries), func(i int) bool { return compareItems(s.entries[i].item, it) >= 0 })
	if i < len(s.entries) && compareItems(s.entries[i].item, it) == 0 {
		return &s.entries[i]
	}
	s.entries = append(s.entries, entry{})
	copy(s.entries[i+1:], s.entries[i:])
	s.entries[i] = entry{item: it}
	return &s.entries[i]
}

func (s *itemSet) key(keys *itemKeys) string {
	var b strings.Builder
	for _, e := range s.entries {
		fmt.Fprintf(&b, "%d:%x:%d;", keys.id(e.item), e.lookaheads.Key(), e.reserved)
	}
	return b.String()
}

func (s *itemSet) coreKey(keys *itemKeys) string {
	var b strings.Builder
	for _, e := range s.entries {
		fmt.Fprintf(&b, "%d;", keys.id(e.item))
	}
	return b.String()
}
