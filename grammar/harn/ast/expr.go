package ast

// IntLit is an integer literal (grammar `integer`). Raw is the source text;
// Value is meaningful when Overflow is false (HARN-PAR-006 otherwise).
type IntLit struct {
	Span     Span
	Raw      string
	Value    int64
	Overflow bool
}

// FloatLit is a float literal `digits.digits` (grammar `float`).
type FloatLit struct {
	Span  Span
	Raw   string
	Value float64
}

// DurationLit is `500ms`, `30s`, `1d`... (grammar `duration`); it
// evaluates to an int number of milliseconds.
type DurationLit struct {
	Span     Span
	Raw      string
	Millis   int64
	Overflow bool
}

// BoolLit is `true` or `false` (grammar `true`, `false`).
type BoolLit struct {
	Span  Span
	Value bool
}

// NilLit is `nil` (grammar `nil`).
type NilLit struct{ Span Span }

// StringKind tells the three string syntaxes apart.
type StringKind int

// String syntaxes.
const (
	PlainString     StringKind = iota // "..." (grammar `string`)
	MultilineString                   // """...""" (grammar `multiline_string`)
	RawString                         // r"..." or r#"..."# (grammar `raw_string`)
)

// StringLit is a string literal. Parts alternate literal text (escapes
// decoded, multi-line indentation removed) and interpolations; a string
// without interpolation has at most one text part. Interpolated reports
// whether any part is an interpolation.
type StringLit struct {
	Span  Span
	Kind  StringKind
	Parts []StringPart
}

// StringPart is a piece of a string: Text when Expr is nil, else an
// interpolation `${ expr }` spanning Span.
type StringPart struct {
	Span Span
	Text string
	Expr Expr
}

// Interpolated reports whether the string contains `${ ... }`.
func (s *StringLit) Interpolated() bool {
	for _, p := range s.Parts {
		if p.Expr != nil {
			return true
		}
	}
	return false
}

// Value returns the string's text when it has no interpolation.
func (s *StringLit) Value() (string, bool) {
	if s.Interpolated() {
		return "", false
	}
	text := ""
	for _, p := range s.Parts {
		text += p.Text
	}
	return text, true
}

// ListLit is `[a, b, ...rest]` (grammar `list`). Elements may be *Spread.
type ListLit struct {
	Span     Span
	Elements []Expr
}

// DictLit is `{k: v, "k": v, [e]: v, ...other}` (grammar `dict`). `{}` is
// the empty dict.
type DictLit struct {
	Span    Span
	Entries []*DictEntry
}

// DictEntry is one entry of a dict literal (grammar `dict_entry`, or
// `spread_element` when Spread is set). Exactly one key form is set for an
// ordinary entry: Name (a bare key, keywords included, meaning its text),
// StringKey, or Computed.
type DictEntry struct {
	Span      Span
	Name      *Ident
	StringKey *StringLit
	Computed  Expr
	Value     Expr
	Spread    bool // `...Value`
}

// Spread is `...value` in a list or argument list (grammar
// `spread_element`).
type Spread struct {
	Span  Span
	Value Expr
}

// Closure is `{ params -> body }` (grammar `closure`).
type Closure struct {
	Span   Span
	Params []*Param
	Body   []Stmt
}

// FuncLit is `fn(params) [-> T] { body }` (grammar `function_expression`).
type FuncLit struct {
	Span       Span
	Params     []*Param
	ReturnType Type
	Throws     Type // nil when absent
	Body       *Block
}

// StructLit is `Name { field: value, ... }` (grammar `struct_expression`).
type StructLit struct {
	Span   Span
	Name   *Ident
	Fields []*FieldInit
}

// FieldInit is `name: value` in a struct literal (grammar
// `field_initializer`).
type FieldInit struct {
	Span  Span
	Name  *Ident
	Value Expr
}

// Paren is `(expr)` (grammar `parenthesized_expression`).
type Paren struct {
	Span Span
	X    Expr
}

// Unparen returns e without the parentheses around it.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// Call is `f(args)` or `f<T>(args)` (grammar `call_expression`). A method
// call has a *Member as Func; `harness.llm?.evaluate(...)` is a Call whose
// Func is an optional Member, which is how the checker spots optional calls
// of evaluation methods.
type Call struct {
	Span     Span
	Func     Expr
	TypeArgs []Type
	Args     []Expr // may contain *Spread
}

// Approval is a human-in-the-loop primitive called with positional and
// named arguments, `request_approval("deploy", quorum: 2)` (grammar
// `approval_expression`). Primitive is one of "request_approval",
// "dual_control", "ask_user" and "escalate_to".
type Approval struct {
	Span      Span
	Primitive string
	Args      []*ApprovalArg
}

// ApprovalArg is one argument of an Approval: `name: value` when Name is
// set, else positional (Value may then be a *Spread) (grammar
// `named_argument` or an expression).
type ApprovalArg struct {
	Span  Span
	Name  *Ident // nil when positional
	Value Expr
}

// Member is `x.name` or `x?.name` (grammar `member_expression`).
type Member struct {
	Span     Span
	X        Expr
	Optional bool
	Name     *Ident
}

// Index is `x[i]`, `x?.[i]` or the legacy `x?[i]` (grammar
// `subscript_expression`).
type Index struct {
	Span     Span
	X        Expr
	Optional bool
	Index    Expr
}

// Slice is `x[a:b]` with either bound optional (grammar `slice_expression`).
type Slice struct {
	Span     Span
	X        Expr
	Optional bool
	Low      Expr // nil when omitted
	High     Expr // nil when omitted
}

// Propagate is `x?`, returning early with an Err result (grammar
// `propagation_expression`).
type Propagate struct {
	Span Span
	X    Expr
}

// Unary is `!x` or `-x` (grammar `unary_expression`).
type Unary struct {
	Span Span
	Op   UnaryOp
	X    Expr
}

// UnaryOp is a prefix operator.
type UnaryOp int

// Prefix operators.
const (
	Not    UnaryOp = iota // !
	Negate                // -
)

func (op UnaryOp) String() string {
	if op == Not {
		return "!"
	}
	return "-"
}

// Rethrow is `try* x` (grammar `rethrow_expression`).
type Rethrow struct {
	Span Span
	X    Expr
}

// Binary is `left op right` (grammar `binary_expression`).
type Binary struct {
	Span  Span
	Op    BinaryOp
	Left  Expr
	Right Expr
}

// Conditional is `cond ? a : b` (grammar `conditional_expression`).
type Conditional struct {
	Span Span
	Cond Expr
	Then Expr
	Else Expr
}

// Range is `a to b [exclusive]` (grammar `range_expression`).
type Range struct {
	Span      Span
	Start     Expr
	End       Expr
	Exclusive bool
}

// Pipe is `left |> right` (grammar `pipe_expression`). A right side that
// mentions `_` is a placeholder call; the interpreter decides.
type Pipe struct {
	Span  Span
	Left  Expr
	Right Expr
}

// If is `if cond { } [else if ... | else { }]` (grammar `if_expression`).
// Else is nil, a *Block, or an *If.
type If struct {
	Span Span
	Cond Expr
	Then *Block
	Else Node
}

// Match is `match value { arms }` (grammar `match_expression`).
type Match struct {
	Span  Span
	Value Expr
	Arms  []*MatchArm
}

// MatchArm is `pattern [if guard] -> { body }` (grammar `match_arm`).
type MatchArm struct {
	Span    Span
	Pattern Pattern
	Guard   Expr // nil when absent
	Body    *Block
}

// Try is `try { } [catch ...] [finally { }]` (grammar `try_expression`);
// without catch it produces a Result.
type Try struct {
	Span    Span
	Body    *Block
	Catch   *Catch // nil when absent
	Finally *Block // nil when absent
}

// Catch is `catch [(name [: T]) | name] { }` (grammar `catch_clause`).
type Catch struct {
	Span Span
	Name *Ident // nil when the error is not bound
	Type Type   // nil when untyped
	Body *Block
}

// Retry is `retry count { }` (grammar `retry_expression`).
type Retry struct {
	Span  Span
	Count Expr
	Body  *Block
}

// Deadline is `deadline duration { }` (grammar `deadline_expression`).
type Deadline struct {
	Span     Span
	Duration Expr
	Body     *Block
}

// ParallelMode is the form of a parallel expression.
type ParallelMode int

// Parallel forms: `parallel N`, `parallel each xs`, `parallel settle xs`.
const (
	ParallelCount ParallelMode = iota
	ParallelEach
	ParallelSettle
)

// Parallel is `parallel [each|settle] value [with options] { x -> ... }`
// (grammar `parallel_expression`). Body is a *Closure or a *Block.
type Parallel struct {
	Span    Span
	Mode    ParallelMode
	Value   Expr
	Options Expr // nil when absent
	Body    Expr
	// AsStream marks `parallel each xs { ... } as stream`: results arrive
	// as a stream in completion order instead of a list.
	AsStream bool
}

// Spawn is `spawn { }` (grammar `spawn_expression`).
type Spawn struct {
	Span Span
	Body *Block
}

func (n *IntLit) Pos() Span      { return n.Span }
func (n *FloatLit) Pos() Span    { return n.Span }
func (n *DurationLit) Pos() Span { return n.Span }
func (n *BoolLit) Pos() Span     { return n.Span }
func (n *NilLit) Pos() Span      { return n.Span }
func (n *StringLit) Pos() Span   { return n.Span }
func (n *ListLit) Pos() Span     { return n.Span }
func (n *DictLit) Pos() Span     { return n.Span }
func (n *DictEntry) Pos() Span   { return n.Span }
func (n *Spread) Pos() Span      { return n.Span }
func (n *Closure) Pos() Span     { return n.Span }
func (n *FuncLit) Pos() Span     { return n.Span }
func (n *StructLit) Pos() Span   { return n.Span }
func (n *FieldInit) Pos() Span   { return n.Span }
func (n *Paren) Pos() Span       { return n.Span }
func (n *Call) Pos() Span        { return n.Span }
func (n *Approval) Pos() Span    { return n.Span }
func (n *ApprovalArg) Pos() Span { return n.Span }
func (n *Member) Pos() Span      { return n.Span }
func (n *Index) Pos() Span       { return n.Span }
func (n *Slice) Pos() Span       { return n.Span }
func (n *Propagate) Pos() Span   { return n.Span }
func (n *Unary) Pos() Span       { return n.Span }
func (n *Rethrow) Pos() Span     { return n.Span }
func (n *Binary) Pos() Span      { return n.Span }
func (n *Conditional) Pos() Span { return n.Span }
func (n *Range) Pos() Span       { return n.Span }
func (n *Pipe) Pos() Span        { return n.Span }
func (n *If) Pos() Span          { return n.Span }
func (n *Match) Pos() Span       { return n.Span }
func (n *MatchArm) Pos() Span    { return n.Span }
func (n *Try) Pos() Span         { return n.Span }
func (n *Catch) Pos() Span       { return n.Span }
func (n *Retry) Pos() Span       { return n.Span }
func (n *Deadline) Pos() Span    { return n.Span }
func (n *Parallel) Pos() Span    { return n.Span }
func (n *Spawn) Pos() Span       { return n.Span }

func (*IntLit) stmtNode()      {}
func (*FloatLit) stmtNode()    {}
func (*DurationLit) stmtNode() {}
func (*BoolLit) stmtNode()     {}
func (*NilLit) stmtNode()      {}
func (*StringLit) stmtNode()   {}
func (*ListLit) stmtNode()     {}
func (*DictLit) stmtNode()     {}
func (*Spread) stmtNode()      {}
func (*Closure) stmtNode()     {}
func (*FuncLit) stmtNode()     {}
func (*StructLit) stmtNode()   {}
func (*Paren) stmtNode()       {}
func (*Call) stmtNode()        {}
func (*Approval) stmtNode()    {}
func (*Member) stmtNode()      {}
func (*Index) stmtNode()       {}
func (*Slice) stmtNode()       {}
func (*Propagate) stmtNode()   {}
func (*Unary) stmtNode()       {}
func (*Rethrow) stmtNode()     {}
func (*Binary) stmtNode()      {}
func (*Conditional) stmtNode() {}
func (*Range) stmtNode()       {}
func (*Pipe) stmtNode()        {}
func (*If) stmtNode()          {}
func (*Match) stmtNode()       {}
func (*Try) stmtNode()         {}
func (*Retry) stmtNode()       {}
func (*Deadline) stmtNode()    {}
func (*Parallel) stmtNode()    {}
func (*Spawn) stmtNode()       {}
func (*Block) stmtNode()       {}

func (*IntLit) exprNode()      {}
func (*FloatLit) exprNode()    {}
func (*DurationLit) exprNode() {}
func (*BoolLit) exprNode()     {}
func (*NilLit) exprNode()      {}
func (*StringLit) exprNode()   {}
func (*ListLit) exprNode()     {}
func (*DictLit) exprNode()     {}
func (*Spread) exprNode()      {}
func (*Closure) exprNode()     {}
func (*FuncLit) exprNode()     {}
func (*StructLit) exprNode()   {}
func (*Paren) exprNode()       {}
func (*Call) exprNode()        {}
func (*Approval) exprNode()    {}
func (*Member) exprNode()      {}
func (*Index) exprNode()       {}
func (*Slice) exprNode()       {}
func (*Propagate) exprNode()   {}
func (*Unary) exprNode()       {}
func (*Rethrow) exprNode()     {}
func (*Binary) exprNode()      {}
func (*Conditional) exprNode() {}
func (*Range) exprNode()       {}
func (*Pipe) exprNode()        {}
func (*If) exprNode()          {}
func (*Match) exprNode()       {}
func (*Try) exprNode()         {}
func (*Retry) exprNode()       {}
func (*Deadline) exprNode()    {}
func (*Parallel) exprNode()    {}
func (*Spawn) exprNode()       {}
func (*Block) exprNode()       {}

func (m ParallelMode) String() string {
	switch m {
	case ParallelEach:
		return "each"
	case ParallelSettle:
		return "settle"
	}
	return "count"
}

func (k StringKind) String() string {
	switch k {
	case MultilineString:
		return "multiline"
	case RawString:
		return "raw"
	}
	return "plain"
}
