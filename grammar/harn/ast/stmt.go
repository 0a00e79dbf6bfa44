package ast

// Block is `{ statements }` (grammar `block`). Its value, where a block is
// used as an expression, is that of its last statement.
type Block struct {
	Span  Span
	Stmts []Stmt
}

// BindingKind is the keyword of a variable declaration.
type BindingKind int

// Binding keywords. Which are mutable depends on the Harn version: newer
// Harn makes `const` immutable and `let`/`var` mutable; the snapshot made
// `let` immutable. The checker decides; the AST only records the keyword.
const (
	Let BindingKind = iota
	Var
	Const
)

func (k BindingKind) String() string {
	switch k {
	case Let:
		return "let"
	case Var:
		return "var"
	case Const:
		return "const"
	}
	return "?"
}

// VarDecl is `let|var|const PAT [: T] = value` (grammar
// `variable_declaration`).
type VarDecl struct {
	Span    Span
	Kind    BindingKind
	Pattern Pattern
	Type    Type // nil when unannotated
	Value   Expr
}

// Assign is `target op value` with op one of = += -= *= /= %= (grammar
// `assignment`). Target is any expression syntactically; the checker
// accepts names, member and subscript expressions only.
type Assign struct {
	Span   Span
	Target Expr
	Op     AssignOp
	Value  Expr
}

// AssignOp is an assignment operator.
type AssignOp int

// Assignment operators.
const (
	AssignPlain AssignOp = iota // =
	AssignAdd                   // +=
	AssignSub                   // -=
	AssignMul                   // *=
	AssignDiv                   // /=
	AssignMod                   // %=
)

var assignOps = [...]string{"=", "+=", "-=", "*=", "/=", "%="}

func (op AssignOp) String() string {
	if int(op) < len(assignOps) {
		return assignOps[op]
	}
	return "?"
}

// LookupAssignOp maps an operator token to its AssignOp.
func LookupAssignOp(tok string) (AssignOp, bool) {
	for i, s := range assignOps {
		if s == tok {
			return AssignOp(i), true
		}
	}
	return 0, false
}

// Return is `return [value]` (grammar `return_statement`).
type Return struct {
	Span  Span
	Value Expr // nil for a bare return
}

// Throw is `throw value` (grammar `throw_statement`).
type Throw struct {
	Span  Span
	Value Expr
}

// Break is `break` (grammar `break_statement`).
type Break struct{ Span Span }

// Continue is `continue` (grammar `continue_statement`).
type Continue struct{ Span Span }

// For is `for PAT in iterable { }` (grammar `for_statement`).
type For struct {
	Span     Span
	Pattern  Pattern
	Iterable Expr
	Body     *Block
}

// While is `while cond { }` (grammar `while_statement`).
type While struct {
	Span Span
	Cond Expr
	Body *Block
}

// Guard is `guard cond else { }`; the else block must exit (grammar
// `guard_statement`).
type Guard struct {
	Span Span
	Cond Expr
	Else *Block
}

// Require is `require cond [, message]` (grammar `require_statement`).
type Require struct {
	Span    Span
	Cond    Expr
	Message Expr // nil when absent
}

// Defer is `defer { }`, run at scope exit (grammar `defer_statement`).
type Defer struct {
	Span Span
	Body *Block
}

// Mutex is `mutex { }` (grammar `mutex_statement`).
type Mutex struct {
	Span Span
	Body *Block
}

// Select is `select { v from ch { } timeout d { } default { } }` (grammar
// `select_statement`).
type Select struct {
	Span    Span
	Cases   []*SelectCase
	Timeout *SelectTimeout // nil when absent
	Default *Block         // nil when absent
}

// SelectCase is `name from channel { }` (grammar `select_case`).
type SelectCase struct {
	Span    Span
	Name    *Ident
	Channel Expr
	Body    *Block
}

// SelectTimeout is `timeout duration { }` (grammar `select_timeout`).
type SelectTimeout struct {
	Span     Span
	Duration Expr
	Body     *Block
}

// BlockStmt is `block { ... }`, a plain lexical scope (grammar
// `block_statement`). Body spans from its `{`.
type BlockStmt struct {
	Span Span
	Body *Block
}

// Yield is `yield [value]` (grammar `yield_statement`).
type Yield struct {
	Span  Span
	Value Expr // nil for a bare yield
}

// Emit is `emit value` in a `gen fn` (grammar `emit_statement`).
type Emit struct {
	Span  Span
	Value Expr
}

func (n *Block) Pos() Span         { return n.Span }
func (n *VarDecl) Pos() Span       { return n.Span }
func (n *Assign) Pos() Span        { return n.Span }
func (n *Return) Pos() Span        { return n.Span }
func (n *Throw) Pos() Span         { return n.Span }
func (n *Break) Pos() Span         { return n.Span }
func (n *Continue) Pos() Span      { return n.Span }
func (n *For) Pos() Span           { return n.Span }
func (n *While) Pos() Span         { return n.Span }
func (n *Guard) Pos() Span         { return n.Span }
func (n *Require) Pos() Span       { return n.Span }
func (n *Defer) Pos() Span         { return n.Span }
func (n *Mutex) Pos() Span         { return n.Span }
func (n *Select) Pos() Span        { return n.Span }
func (n *SelectCase) Pos() Span    { return n.Span }
func (n *SelectTimeout) Pos() Span { return n.Span }
func (n *Yield) Pos() Span         { return n.Span }
func (n *BlockStmt) Pos() Span     { return n.Span }
func (n *Emit) Pos() Span          { return n.Span }

func (*VarDecl) stmtNode()   {}
func (*Assign) stmtNode()    {}
func (*Return) stmtNode()    {}
func (*Throw) stmtNode()     {}
func (*Break) stmtNode()     {}
func (*Continue) stmtNode()  {}
func (*For) stmtNode()       {}
func (*While) stmtNode()     {}
func (*Guard) stmtNode()     {}
func (*Require) stmtNode()   {}
func (*Defer) stmtNode()     {}
func (*Mutex) stmtNode()     {}
func (*Select) stmtNode()    {}
func (*Yield) stmtNode()     {}
func (*BlockStmt) stmtNode() {}
func (*Emit) stmtNode()      {}
