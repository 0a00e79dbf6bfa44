package ast

// An *Ident in pattern position binds the matched value (grammar
// `identifier` under `_pattern`).

// WildcardPattern is `_`: match anything, bind nothing (grammar
// `wildcard_pattern`).
type WildcardPattern struct{ Span Span }

// LiteralPattern matches by value equality (grammar string, number,
// duration, `true`, `false`, `nil` or `negative_literal` under `_pattern`).
// Value is the literal expression; a negative literal is a *Unary Negate.
type LiteralPattern struct {
	Span  Span
	Value Expr
}

// OrPattern is `p1 | p2 | ...`, flattened from the grammar's nested
// `or_pattern` nodes. Harn allows literal alternatives only; the checker
// enforces it.
type OrPattern struct {
	Span         Span
	Alternatives []Pattern
}

// DictPattern is `{a, b: alias, c = default, ...rest}` in a binding or
// `{status: "ok", data: d}` in a match arm (grammar `dict_pattern`).
type DictPattern struct {
	Span    Span
	Entries []*DictPatternEntry
	Rest    *Ident // nil when absent
}

// DictPatternEntry is one key of a dict pattern (grammar
// `dict_pattern_entry`). Key is the key text (bare or quoted); Pattern is
// nil for the shorthand `{a}`, which binds `a`.
type DictPatternEntry struct {
	Span    Span
	Key     string
	KeySpan Span
	Pattern Pattern
	Default Expr
}

// ListPattern is `[x, _, y = 0, ...rest]` (grammar `list_pattern`).
type ListPattern struct {
	Span     Span
	Elements []*ListPatternElement
	Rest     *Ident // nil when absent
}

// ListPatternElement is one element with an optional default (grammar
// `list_pattern_element`).
type ListPatternElement struct {
	Span    Span
	Pattern Pattern
	Default Expr
}

// PairPattern is `(k, v)` for Pair values, typically in `for` loops
// (grammar `pair_pattern`).
type PairPattern struct {
	Span          Span
	First, Second Pattern
}

// VariantPattern is `Shape.Circle(r)`, `Color.Red`, `Result.Ok(v)` or
// `Ok(v)` (grammar `variant_pattern`). Args is nil when no parentheses were
// written.
type VariantPattern struct {
	Span    Span
	Enum    *Ident // nil for the unqualified form
	Variant *Ident
	Args    []Pattern
}

func (n *WildcardPattern) Pos() Span    { return n.Span }
func (n *LiteralPattern) Pos() Span     { return n.Span }
func (n *OrPattern) Pos() Span          { return n.Span }
func (n *DictPattern) Pos() Span        { return n.Span }
func (n *DictPatternEntry) Pos() Span   { return n.Span }
func (n *ListPattern) Pos() Span        { return n.Span }
func (n *ListPatternElement) Pos() Span { return n.Span }
func (n *PairPattern) Pos() Span        { return n.Span }
func (n *VariantPattern) Pos() Span     { return n.Span }

func (*WildcardPattern) patternNode() {}
func (*LiteralPattern) patternNode()  {}
func (*OrPattern) patternNode()       {}
func (*DictPattern) patternNode()     {}
func (*ListPattern) patternNode()     {}
func (*PairPattern) patternNode()     {}
func (*VariantPattern) patternNode()  {}
