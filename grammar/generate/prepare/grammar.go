// Package prepare turns a decoded grammar.json into the normalized grammars
// the table builders consume, following tree-sitter's own preparation
// stages: unreachable rules are dropped, names are interned, tokens are
// extracted into a lexical grammar, repeats become auxiliary binary rules,
// rules are flattened into productions whose steps carry precedence,
// associativity, alias and field, aliases used everywhere become default
// aliases, and inline rules get their expansions precomputed.
//
// Invariants: the package does no IO, never panics on a bad grammar
// (errors name the offending rule), and its output depends only on the
// input, so generation is deterministic. It knows nothing of LR items or
// lexer automata.
package prepare

import (
	"cmp"
	"fmt"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// SymbolKind orders symbol classes as tree-sitter does: externals sort
// first, then end-of-input, the end of a non-terminal extra, lexical
// terminals, and non-terminals.
type SymbolKind uint8

// The symbol kinds.
const (
	External SymbolKind = iota
	End
	EndOfNonTerminalExtra
	Terminal
	NonTerminal
)

// Symbol names a grammar symbol by kind and index into its list
// (lexical variables, syntax variables or external tokens).
type Symbol struct {
	Kind  SymbolKind
	Index int
}

// Less orders symbols by kind, then index.
func (s Symbol) Less(o Symbol) bool {
	if s.Kind != o.Kind {
		return s.Kind < o.Kind
	}
	return s.Index < o.Index
}

// Compare returns -1, 0 or 1 as s sorts before, equal to or after o.
func (s Symbol) Compare(o Symbol) int {
	switch {
	case s.Less(o):
		return -1
	case o.Less(s):
		return 1
	}
	return 0
}

// Term is lexical token i.
func Term(i int) Symbol { return Symbol{Terminal, i} }

// NonTerm is syntax variable i.
func NonTerm(i int) Symbol { return Symbol{NonTerminal, i} }

// Ext is external token i.
func Ext(i int) Symbol { return Symbol{External, i} }

// EndSymbol is the end-of-input lookahead.
var EndSymbol = Symbol{End, 0}

// EndOfExtraSymbol is the lookahead ending a non-terminal extra.
var EndOfExtraSymbol = Symbol{EndOfNonTerminalExtra, 0}

// PrecKind tells an absent precedence from an integer or a named one.
type PrecKind uint8

// The precedence kinds, in tree-sitter's order (none < integer < name).
const (
	PrecNone PrecKind = iota
	PrecInt
	PrecName
)

// Precedence is a step's precedence. PrecNone differs from the integer 0.
type Precedence struct {
	Kind PrecKind
	Int  int
	Name string
}

// String renders the precedence as conflict messages show it.
func (p Precedence) String() string {
	switch p.Kind {
	case PrecInt:
		return fmt.Sprint(p.Int)
	case PrecName:
		return "'" + p.Name + "'"
	}
	return "none"
}

// Compare orders precedences: none < integers (by value) < names (by text).
func (p Precedence) Compare(o Precedence) int {
	if p.Kind != o.Kind {
		return cmp.Compare(int(p.Kind), int(o.Kind))
	}
	switch p.Kind {
	case PrecInt:
		return cmp.Compare(p.Int, o.Int)
	case PrecName:
		return cmp.Compare(p.Name, o.Name)
	}
	return 0
}

// Assoc is a step's associativity.
type Assoc uint8

// Associativities, ordered none < left < right.
const (
	AssocNone Assoc = iota
	AssocLeft
	AssocRight
)

// String names the associativity as conflict messages show it.
func (a Assoc) String() string {
	switch a {
	case AssocLeft:
		return "Left"
	case AssocRight:
		return "Right"
	}
	return ""
}

// Alias renames a node.
type Alias struct {
	Value string
	Named bool
}

// Kind is the variable kind an alias gives its node.
func (a Alias) Kind() ir.VariableKind {
	if a.Named {
		return ir.Named
	}
	return ir.Anonymous
}

// Compare orders aliases by value, then named-ness.
func (a *Alias) Compare(o *Alias) int {
	switch {
	case a == nil && o == nil:
		return 0
	case a == nil:
		return -1
	case o == nil:
		return 1
	}
	if c := cmp.Compare(a.Value, o.Value); c != 0 {
		return c
	}
	return cmpBool(a.Named, o.Named)
}

// Equal reports whether two optional aliases are the same.
func (a *Alias) Equal(o *Alias) bool { return a.Compare(o) == 0 }

// Step is one symbol of a production with the metadata in effect there.
type Step struct {
	Symbol      Symbol
	Prec        Precedence
	Assoc       Assoc
	Alias       *Alias
	Field       string
	ReservedSet int
}

// Compare orders steps by symbol, precedence, associativity, alias, field
// and reserved-word set.
func (s *Step) Compare(o *Step) int {
	if c := s.Symbol.Compare(o.Symbol); c != 0 {
		return c
	}
	if c := s.Prec.Compare(o.Prec); c != 0 {
		return c
	}
	if c := cmp.Compare(int(s.Assoc), int(o.Assoc)); c != 0 {
		return c
	}
	if c := s.Alias.Compare(o.Alias); c != 0 {
		return c
	}
	if c := cmp.Compare(s.Field, o.Field); c != 0 {
		return c
	}
	return cmp.Compare(s.ReservedSet, o.ReservedSet)
}

// Production is one flattened alternative of a rule.
type Production struct {
	Steps             []Step
	DynamicPrecedence int
}

// Equal reports whether two productions have identical steps and
// dynamic precedence.
func (p *Production) Equal(o *Production) bool {
	if p.DynamicPrecedence != o.DynamicPrecedence || len(p.Steps) != len(o.Steps) {
		return false
	}
	for i := range p.Steps {
		if p.Steps[i].Compare(&o.Steps[i]) != 0 {
			return false
		}
	}
	return true
}

// SyntaxVariable is a non-terminal with its productions.
type SyntaxVariable struct {
	Name        string
	Kind        ir.VariableKind
	Productions []*Production
}

// ExternalToken is an entry of the grammar's externals. Internal is the
// lexical token it also names, or -1.
type ExternalToken struct {
	Name     string
	Kind     ir.VariableKind
	Internal int
}

// PrecedenceEntry is one member of a `precedences` list: a named level or
// a rule name.
type PrecedenceEntry struct {
	Name     string
	IsSymbol bool
}

// SyntaxGrammar is the grammar the LR builder reads.
type SyntaxGrammar struct {
	Variables           []SyntaxVariable
	Extras              []Symbol
	ExpectedConflicts   [][]Symbol // each sorted ascending
	Inline              []Symbol
	PrecedenceOrderings [][]PrecedenceEntry
	Externals           []ExternalToken
	Supertypes          []Symbol
	Word                int // lexical index of the word token, or -1
	// ReservedWordSets holds the terminals of each reserved-word set; set 0
	// is the default (empty when the grammar declares none).
	ReservedWordSets [][]Symbol
}

// IsInline reports whether s is listed in Inline.
func (g *SyntaxGrammar) IsInline(s Symbol) bool {
	for _, x := range g.Inline {
		if x == s {
			return true
		}
	}
	return false
}

// IsSupertype reports whether s is a supertype.
func (g *SyntaxGrammar) IsSupertype(s Symbol) bool {
	for _, x := range g.Supertypes {
		if x == s {
			return true
		}
	}
	return false
}

// IsExtra reports whether s is an extra.
func (g *SyntaxGrammar) IsExtra(s Symbol) bool {
	for _, x := range g.Extras {
		if x == s {
			return true
		}
	}
	return false
}

// LexicalVariable is one extracted token, ready for the lex stage.
type LexicalVariable struct {
	Name string
	Kind ir.VariableKind
	// Rule is the token's rule rebuilt as grammar.json nodes.
	Rule *input.Rule
}

// LexicalGrammar lists tokens in extraction order and the separators
// (extras that are plain patterns or strings, skipped between tokens).
type LexicalGrammar struct {
	Variables  []LexicalVariable
	Separators []*input.Rule
}

// Grammar is everything preparation produces.
type Grammar struct {
	Name           string
	Syntax         *SyntaxGrammar
	Lexical        *LexicalGrammar
	DefaultAliases map[Symbol]Alias
	Inlines        *InlineMap
	// Fields[v] is the sorted set of field names variable v's nodes can
	// carry, including those inherited from hidden children.
	Fields [][]string
}

// Error is a grammar problem, naming the rule where it was found.
type Error struct {
	Rule string // empty when the problem is not tied to one rule
	Msg  string
}

// Error renders the problem with the rule it concerns.
func (e *Error) Error() string {
	if e.Rule == "" {
		return "grammar: " + e.Msg
	}
	return fmt.Sprintf("grammar: rule `%s`: %s", e.Rule, e.Msg)
}

func errf(rule, format string, args ...any) error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
