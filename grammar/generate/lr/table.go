// Package lr builds tree-sitter's parse table from a prepared grammar:
// canonical LR(1) item sets, conflict resolution by precedence,
// associativity, named precedences and declared conflicts (kept as GLR
// forks), the error-recovery state, used-symbol numbering, production ids
// with their alias sequences and field maps, state minimization,
// external lex states and reusable flags.
//
// It knows nothing of lexer automata: where token relations matter
// (minimization, reusable flags) it asks a TokenRelations value, which the
// orchestrator backs with the lex stage.
package lr

import (
	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// Symbol is a grammar symbol (see prepare.Symbol).
type Symbol = prepare.Symbol

// ActionKind distinguishes parse actions.
type ActionKind uint8

// The parse action kinds.
const (
	Shift ActionKind = iota
	ShiftExtra
	Reduce
	Accept
	Recover
)

// Action is one parse action. Shift uses State and Repetition; Reduce uses
// Symbol, ChildCount, DynamicPrecedence and ProductionID.
type Action struct {
	Kind              ActionKind
	State             int
	Repetition        bool
	Symbol            Symbol
	ChildCount        int
	DynamicPrecedence int
	ProductionID      int
}

// Entry is the action list for one terminal in one state.
type Entry struct {
	Actions  []Action
	Reusable bool
}

// Goto is a non-terminal entry: a successor state, or a self-goto for a
// non-terminal extra.
type Goto struct {
	State int
	Extra bool
}

// State is one parse state.
type State struct {
	ID          int
	Terminal    map[Symbol]*Entry
	NonTerminal map[int]Goto // keyed by non-terminal index
	// LexState is the lexer entry state; ExternalLexState the row of the
	// external scanner validity table.
	LexState         int
	ExternalLexState int
	CoreID           int
	// ReservedWords are the reserved terminals for this state (ABI 15).
	ReservedWords ir.TokenSet
}

// IsEndOfNonTerminalExtra reports whether the state finishes a
// non-terminal extra.
func (s *State) IsEndOfNonTerminalExtra() bool {
	_, ok := s.Terminal[prepare.EndOfExtraSymbol]
	return ok
}

// FieldLocation places a field on a child of a production.
type FieldLocation struct {
	Index     int
	Inherited bool
}

// ProductionInfo is what a production id stands for: the alias of each
// child (trailing unaliased children trimmed) and the field map.
type ProductionInfo struct {
	Aliases []*prepare.Alias
	Fields  map[string][]FieldLocation
}

func (p *ProductionInfo) equal(o *ProductionInfo) bool {
	if len(p.Aliases) != len(o.Aliases) || len(p.Fields) != len(o.Fields) {
		return false
	}
	for i := range p.Aliases {
		if !p.Aliases[i].Equal(o.Aliases[i]) {
			return false
		}
	}
	for k, v := range p.Fields {
		w, ok := o.Fields[k]
		if !ok || len(v) != len(w) {
			return false
		}
		for i := range v {
			if v[i] != w[i] {
				return false
			}
		}
	}
	return true
}

// Table is the parse table.
type Table struct {
	States []*State
	// Symbols lists the used symbols in their final numbering order.
	Symbols []Symbol
	// ExternalLexStates[i] is the set of external token indices valid in
	// external lex state i; row 0 is empty.
	ExternalLexStates [][]int
	ProductionInfos   []ProductionInfo
	MaxAliasLength    int
}

// referenced calls f with each state id the state refers to and stores the
// result back.
func (s *State) updateReferences(f func(id int) int) {
	for _, e := range s.Terminal {
		for i := range e.Actions {
			if e.Actions[i].Kind == Shift {
				e.Actions[i].State = f(e.Actions[i].State)
			}
		}
	}
	for k, g := range s.NonTerminal {
		if !g.Extra {
			g.State = f(g.State)
			s.NonTerminal[k] = g
		}
	}
}

func newState(id, core int) *State {
	return &State{ID: id, CoreID: core, Terminal: map[Symbol]*Entry{}, NonTerminal: map[int]Goto{}}
}
