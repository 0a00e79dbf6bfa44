package lr

import (
	"slices"
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// TokenRelations is what the parse-table passes need to know about how
// lexical tokens relate; the lex stage provides it.
type TokenRelations interface {
	// DoesConflict reports whether token i can be wrongly lexed as j.
	DoesConflict(i, j int) bool
	// DoesOverlap reports whether tokens i and j overlap in any way.
	DoesOverlap(i, j int) bool
}

// StateTokens returns, per state, the terminals that have entries there
// (keywords not replaced), for the lex stage's coincidence index.
func StateTokens(t *Table) []ir.TokenSet {
	out := make([]ir.TokenSet, len(t.States))
	for i, s := range t.States {
		for sym := range s.Terminal {
			if sym.Kind == prepare.Terminal {
				out[i].Add(sym.Index)
			}
		}
	}
	return out
}

// PopulateErrorState fills state 0: Recover on the given terminals, on
// every external token without an internal twin, and on end-of-input.
func PopulateErrorState(t *Table, g *prepare.SyntaxGrammar, tokens ir.TokenSet) {
	s := t.States[0]
	recover := func(sym Symbol) {
		if _, ok := s.Terminal[sym]; !ok {
			s.Terminal[sym] = &Entry{Actions: []Action{{Kind: Recover}}}
		}
	}
	tokens.Each(func(i int) { recover(prepare.Term(i)) })
	for i, e := range g.Externals {
		if e.Internal < 0 {
			recover(prepare.Ext(i))
		}
	}
	s.Terminal[prepare.EndSymbol] = &Entry{Actions: []Action{{Kind: Recover}}}
}

// PopulateUsedSymbols numbers the symbols that appear in the table: EOF,
// the word token, other terminals, externals, then non-terminals.
func PopulateUsedSymbols(t *Table, g *prepare.SyntaxGrammar, terminalCount int) {
	term := make([]bool, terminalCount)
	ext := make([]bool, len(g.Externals))
	nonterm := make([]bool, len(g.Variables))
	for _, s := range t.States {
		for sym := range s.Terminal {
			switch sym.Kind {
			case prepare.Terminal:
				term[sym.Index] = true
			case prepare.External:
				ext[sym.Index] = true
			}
		}
		for i := range s.NonTerminal {
			nonterm[i] = true
		}
	}
	t.Symbols = []Symbol{prepare.EndSymbol}
	for i, used := range term {
		if !used {
			continue
		}
		if i == g.Word {
			t.Symbols = append(t.Symbols[:1], append([]Symbol{prepare.Term(i)}, t.Symbols[1:]...)...)
		} else {
			t.Symbols = append(t.Symbols, prepare.Term(i))
		}
	}
	for i, used := range ext {
		if used {
			t.Symbols = append(t.Symbols, prepare.Ext(i))
		}
	}
	for i, used := range nonterm {
		if used {
			t.Symbols = append(t.Symbols, prepare.NonTerm(i))
		}
	}
}

// PopulateExternalLexStates assigns each state the row of external tokens
// valid there (an internal token with an external twin enables the twin).
func PopulateExternalLexStates(t *Table, g *prepare.SyntaxGrammar) {
	twin := map[int]int{}
	for i, e := range g.Externals {
		if e.Internal >= 0 {
			twin[e.Internal] = i
		}
	}
	t.ExternalLexStates = [][]int{nil}
	for _, s := range t.States {
		var set ir.TokenSet
		for sym := range s.Terminal {
			if sym.Kind == prepare.External {
				set.Add(sym.Index)
			} else if sym.Kind == prepare.Terminal {
				if i, ok := twin[sym.Index]; ok {
					set.Add(i)
				}
			}
		}
		list := set.Slice()
		found := -1
		for i, row := range t.ExternalLexStates {
			if slices.Equal(row, list) {
				found = i
				break
			}
		}
		if found < 0 {
			t.ExternalLexStates = append(t.ExternalLexStates, list)
			found = len(t.ExternalLexStates) - 1
		}
		s.ExternalLexState = found
	}
}

// MarkFragileTokens clears the reusable flag of terminals that overlap
// lexically with another terminal valid in the same state.
func MarkFragileTokens(t *Table, rel TokenRelations) {
	for _, s := range t.States {
		var valid []int
		for sym := range s.Terminal {
			if sym.Kind == prepare.Terminal {
				valid = append(valid, sym.Index)
			}
		}
		sort.Ints(valid)
		for sym, e := range s.Terminal {
			if sym.Kind != prepare.Terminal {
				continue
			}
			for _, i := range valid {
				if rel.DoesOverlap(i, sym.Index) {
					e.Reusable = false
					break
				}
			}
		}
	}
}
