// Package ast is the typed syntax tree of Leia, lowered from the
// tree-sitter tree of grammar/leia and shared by the checker and the
// interpreter.
//
// Every node carries its byte span in the source. Syntax errors become
// *Error nodes in place (and are listed in File.Errors), so a file with
// errors still lowers to a tree. The AI dialect forms record which form
// was written, current (tagged blocks such as `tool {...}`) or legacy
// (declarations such as `tool name(p) {...}`), so the checker can lower both
// to the same llm helper calls and still flag the legacy spelling.
//
// Invariants: lowering never panics and never fails; it reads only node
// kinds, fields and text, and carries no semantic rules (names are not
// resolved, tag names are only classified).
package ast

// Span is a half-open byte range [Start, End) of the source.
type Span struct {
	Start, End int
}

// Pos returns the span itself; embedding Span gives every node a Pos method.
func (s Span) Pos() Span { return s }

// Node is any syntax tree node.
type Node interface {
	Pos() Span
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Form tells which spelling of an AI dialect construct the source used.
type Form uint8

const (
	// FormNone marks constructs that are not AI dialect forms.
	FormNone Form = iota
	// FormCurrent is the table-style tagged form (`tool { name: ... }`).
	FormCurrent
	// FormLegacy is a GScript / early Leia declaration form
	// (`tool name(p) {...}`, `agent name(p) {...} flow {...}`, `models {}`,
	// `messages {}`, `agent defaults {}`, `budget {} {}`).
	FormLegacy
)

// String names the form.
func (f Form) String() string {
	switch f {
	case FormCurrent:
		return "current"
	case FormLegacy:
		return "legacy"
	}
	return "none"
}

// DialectKind classifies a tagged block or AI declaration by its tag.
type DialectKind uint8

const (
	// DialectGeneric is any tag without built-in meaning to the checker.
	DialectGeneric DialectKind = iota
	// DialectModel is `model {...}` (current) or `models {...}` (legacy):
	// llm.register_models.
	DialectModel
	// DialectTool is `tool {...}` or a legacy tool declaration: llm.tool.
	DialectTool
	// DialectTurn is `turn {...}`: llm.turn.
	DialectTurn
	// DialectAgent is `agent {...}`, a legacy agent literal or declaration:
	// llm.agent.
	DialectAgent
	// DialectAgentDefaults is the legacy `agent defaults {...}`.
	DialectAgentDefaults
	// DialectPrompt is `prompt {...}` or prompt`...`: a message table.
	DialectPrompt
	// DialectMessages is the legacy `messages {...}` block.
	DialectMessages
	// DialectBudget is the limits block of a legacy `budget {...} {...}`.
	DialectBudget
	// DialectQuote is `quote {...}`.
	DialectQuote
	// DialectShell is $`...` (tag sh).
	DialectShell
)

var dialectNames = [...]string{"generic", "model", "tool", "turn", "agent", "agent_defaults", "prompt", "messages", "budget", "quote", "shell"}

// String names the dialect kind.
func (k DialectKind) String() string {
	if int(k) < len(dialectNames) {
		return dialectNames[k]
	}
	return "unknown"
}

// ClassifyTag maps a tag name to its dialect kind and form. Unknown tags
// are generic dialects in the current form.
func ClassifyTag(tag string) (DialectKind, Form) {
	switch tag {
	case "model":
		return DialectModel, FormCurrent
	case "models":
		return DialectModel, FormLegacy
	case "tool":
		return DialectTool, FormCurrent
	case "turn":
		return DialectTurn, FormCurrent
	case "agent":
		return DialectAgent, FormCurrent
	case "prompt":
		return DialectPrompt, FormCurrent
	case "messages":
		return DialectMessages, FormLegacy
	case "budget":
		return DialectBudget, FormLegacy
	case "quote":
		return DialectQuote, FormCurrent
	case "sh":
		return DialectShell, FormCurrent
	}
	return DialectGeneric, FormCurrent
}

// File is one lowered source file.
type File struct {
	Span
	Stmts []Stmt
	// FileDirectives are the `//leia:` lines in the leading comment group
	// of the file (spec "File directives"); they never change semantics.
	FileDirectives []*Directive
	// Comments holds every comment and directive, in source order.
	Comments []*Comment
	// Errors lists every syntax error node, in source order.
	Errors []*Error
}

// Comment is a `//` or `/* */` comment, or a directive line.
type Comment struct {
	Span
	Text string
	// Directive is set for `//leia:` and `//gscript:` lines.
	Directive *Directive
}

// Directive is a `//leia:kind args` (or legacy `//gscript:kind args`) line.
type Directive struct {
	Span
	// Prefix is "leia" or "gscript".
	Prefix string
	// Kind is the word after the colon (build, test, cap, feature,
	// requires, param, ...).
	Kind string
	// Args is the rest of the line split on commas and whitespace.
	Args []string
	// Rest is the rest of the line after the kind, trimmed.
	Rest string
}

// Error stands for source the parser could not read: an ERROR node, or a
// MISSING token the parser had to assume. It is both a statement and an
// expression so it can sit wherever the broken construct was.
type Error struct {
	Span
	// Missing names the token or node the parser inserted, empty for
	// an ERROR region.
	Missing string
	// Text is the source of the region (empty for a missing token).
	Text string
	// Token is set for an error that is one token the lexer could not read
	// as written rather than a failed parse: "number" for a number literal
	// run together with letters or misplaced `_` (`1name`, `1__2`).
	Token string
}

func (*Error) stmtNode() {}
func (*Error) exprNode() {}

// Ident is a name.
type Ident struct {
	Span
	Name string
}

func (*Ident) exprNode() {}

// Block is `{ statements }`.
type Block struct {
	Span
	Stmts []Stmt
}

// Params is a parameter list. A variadic parameter is last in Names when
// Variadic is set; its name is "..." when unnamed.
type Params struct {
	Span
	Names    []*Ident
	Variadic bool
}
