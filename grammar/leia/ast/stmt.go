package ast

// ExprStmt is an expression used as a statement (usually a call or a
// tagged block such as `model {...}`).
type ExprStmt struct {
	Span
	X Expr
}

// DeclareStmt is `a, b := x, y`. Left holds expressions as written; the
// checker requires names.
type DeclareStmt struct {
	Span
	Left, Right []Expr
}

// AssignStmt is `a, t[k], t.f = x, y, z`.
type AssignStmt struct {
	Span
	Left, Right []Expr
}

// CompoundAssignStmt is `x += e` (also -=, *=, /=).
type CompoundAssignStmt struct {
	Span
	Op          string
	Left, Right Expr
}

// IncDecStmt is `x++` or `x--`.
type IncDecStmt struct {
	Span
	X   Expr
	Inc bool
}

// SendStmt is `ch <- v`.
type SendStmt struct {
	Span
	Chan, Value Expr
}

// ReceiveStmt is the `v, ok := <-ch` (or `=`) of a select case.
type ReceiveStmt struct {
	Span
	Left    []Expr
	Declare bool
	Right   Expr
}

// ConstDecl is `const a := 1` or `const a = 1`.
type ConstDecl struct {
	Span
	Names   []*Ident
	Values  []Expr
	Declare bool // written with := rather than =
}

// FuncDecl is `func name(params) { body }`.
type FuncDecl struct {
	Span
	Name   *Ident
	Params *Params
	Body   *Block
}

// IfStmt is `if c {} elseif c {} else if c {} else {}`.
type IfStmt struct {
	Span
	Cond    Expr
	Then    *Block
	ElseIfs []*ElseIf
	Else    *Block // nil when absent
}

// ElseIf is one `elseif` or `else if` clause.
type ElseIf struct {
	Span
	Cond Expr
	Body *Block
	// TwoWords reports the `else if` spelling.
	TwoWords bool
}

// ForKind tells the four loop forms apart.
type ForKind uint8

const (
	// ForInfinite is `for { }`.
	ForInfinite ForKind = iota
	// ForCond is `for cond { }`.
	ForCond
	// ForClause is `for init; cond; post { }`.
	ForClause
	// ForRange is `for k, v := range x { }`.
	ForRange
)

var forKindNames = [...]string{"infinite", "cond", "clause", "range"}

// String names the loop form.
func (k ForKind) String() string {
	if int(k) < len(forKindNames) {
		return forKindNames[k]
	}
	return "unknown"
}

// ForStmt is a loop. Which fields are set depends on Kind.
type ForStmt struct {
	Span
	Kind ForKind
	Init Stmt // ForClause, may be nil
	Cond Expr // ForCond and ForClause, may be nil
	Post Stmt // ForClause, may be nil
	// Range loops: Vars are the names left of `:= range`, X the ranged value.
	Vars []Expr
	X    Expr
	Body *Block
}

// SelectStmt is `select { case ...: ... default: ... }`.
type SelectStmt struct {
	Span
	Cases []*CommCase
}

// CommCase is one case of a select. Comm is nil for `default`.
type CommCase struct {
	Span
	Comm    Stmt
	Default bool
	Body    []Stmt
}

// ReturnStmt is `return` with optional values.
type ReturnStmt struct {
	Span
	Values []Expr
}

// BreakStmt is `break`.
type BreakStmt struct{ Span }

// ContinueStmt is `continue`.
type ContinueStmt struct{ Span }

// GotoStmt is `goto label`.
type GotoStmt struct {
	Span
	Label *Ident
}

// LabelStmt is `label:`.
type LabelStmt struct {
	Span
	Name *Ident
}

// GoStmt is `go call`.
type GoStmt struct {
	Span
	Call Expr
}

// DeferStmt is `defer call`.
type DeferStmt struct {
	Span
	Call Expr
}

// ImportDecl is `import spec` or `import ( specs )`.
type ImportDecl struct {
	Span
	Specs []*ImportSpec
}

// ImportSpec is one imported path with an optional alias.
type ImportSpec struct {
	Span
	Alias *Ident // nil when the alias is the last path element
	Path  *StringLit
	// AsForm reports the legacy `import "path" as alias` spelling.
	AsForm bool
}

// EvaluateStmt is `evaluate "name" { ... }`, a regression case that has no
// effect when the script runs normally.
type EvaluateStmt struct {
	Span
	Name *StringLit
	Body *Block
}

// ToolDecl is the legacy `tool name(params) { body }` declaration (always
// FormLegacy). Its directives come from the comment lines directly above
// it: `//leia:requires a, b` (or `none`), `//leia:param name text`; other
// contiguous comment lines form Doc. It lowers to llm.tool(name, fn, opts)
// like a current `tool {}` block.
type ToolDecl struct {
	Span
	Name       *Ident
	Params     *Params
	Body       *Block
	Doc        string
	Requires   []string
	ParamDocs  []ParamDoc
	Directives []*Directive
}

// ParamDoc is one `//leia:param name text` directive.
type ParamDoc struct {
	Name, Text string
	Directive  *Directive
}

// AgentDecl is the legacy `agent name(params) { config } flow { ... }`
// declaration (always FormLegacy). Params and Flow may be nil.
type AgentDecl struct {
	Span
	Name   *Ident
	Params *Params
	Config *TableExpr
	Flow   *Block
}

// AgentDefaults is the legacy `agent defaults { ... }` declaration.
type AgentDefaults struct {
	Span
	Config *TableExpr
}

// BudgetStmt is the legacy `budget { limits } { body }` statement. Limits is
// the tagged block as written; its tag should be `budget`.
type BudgetStmt struct {
	Span
	Limits *TaggedBlock
	Body   *Block
}

func (*ExprStmt) stmtNode()           {}
func (*DeclareStmt) stmtNode()        {}
func (*AssignStmt) stmtNode()         {}
func (*CompoundAssignStmt) stmtNode() {}
func (*IncDecStmt) stmtNode()         {}
func (*SendStmt) stmtNode()           {}
func (*ReceiveStmt) stmtNode()        {}
func (*ConstDecl) stmtNode()          {}
func (*FuncDecl) stmtNode()           {}
func (*IfStmt) stmtNode()             {}
func (*ForStmt) stmtNode()            {}
func (*SelectStmt) stmtNode()         {}
func (*ReturnStmt) stmtNode()         {}
func (*BreakStmt) stmtNode()          {}
func (*ContinueStmt) stmtNode()       {}
func (*GotoStmt) stmtNode()           {}
func (*LabelStmt) stmtNode()          {}
func (*GoStmt) stmtNode()             {}
func (*DeferStmt) stmtNode()          {}
func (*ImportDecl) stmtNode()         {}
func (*EvaluateStmt) stmtNode()       {}
func (*ToolDecl) stmtNode()           {}
func (*AgentDecl) stmtNode()          {}
func (*AgentDefaults) stmtNode()      {}
func (*BudgetStmt) stmtNode()         {}
