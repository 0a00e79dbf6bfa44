package ast

// IntLit is an integer literal. Value is valid when Ok; a literal outside
// int64 (or one the lexer accepted but strconv does not) has Ok false and
// the checker decides (Leia turns out-of-range integers into floats).
type IntLit struct {
	Span
	Raw   string
	Value int64
	Ok    bool
}

// FloatLit is a literal with a fraction or an exponent.
type FloatLit struct {
	Span
	Raw   string
	Value float64
	Ok    bool
}

// DurationLit is a legacy duration such as `30s` or `250ms`.
type DurationLit struct {
	Span
	Raw string
}

// BoolLit is `true` or `false`.
type BoolLit struct {
	Span
	Value bool
}

// NilLit is `nil`.
type NilLit struct{ Span }

// VarargExpr is `...` used as a value.
type VarargExpr struct{ Span }

// ChanExpr is `chan`, the argument of make(chan[, n]).
type ChanExpr struct{ Span }

// StringKind tells string spellings apart.
type StringKind uint8

const (
	// StringDouble is "..." (escapes and ${} interpolation).
	StringDouble StringKind = iota
	// StringSingle is '...' (escapes, no interpolation).
	StringSingle
	// StringRaw is `...` (no escapes, no interpolation).
	StringRaw
	// StringFenced is ```...``` (no escapes, no interpolation).
	StringFenced
)

var stringKindNames = [...]string{"double", "single", "raw", "fenced"}

// String names the kind.
func (k StringKind) String() string {
	if int(k) < len(stringKindNames) {
		return stringKindNames[k]
	}
	return "unknown"
}

// StringPart is literal text (escapes decoded) or an interpolated
// expression; exactly one of Text and Expr is meaningful (Expr non-nil).
type StringPart struct {
	Span
	Text string
	Expr Expr
}

// StringLit is a string literal. Parts alternate text and interpolations
// as written; adjacent text parts are merged.
type StringLit struct {
	Span
	Kind  StringKind
	Parts []StringPart
}

// Value returns the string's text when it has no interpolation.
func (s *StringLit) Value() (string, bool) {
	out := ""
	for _, p := range s.Parts {
		if p.Expr != nil {
			return "", false
		}
		out += p.Text
	}
	return out, true
}

// ParenExpr is `(x)`; it truncates a call to one value.
type ParenExpr struct {
	Span
	X Expr
}

// UnaryExpr is `op x` with op one of ! - # ^ <-.
type UnaryExpr struct {
	Span
	Op string
	X  Expr
}

// BinaryExpr is `x op y`.
type BinaryExpr struct {
	Span
	Op          string
	Left, Right Expr
}

// CallExpr is `f(args)`.
type CallExpr struct {
	Span
	Fun  Expr
	Args []Expr
}

// MethodCallExpr is `recv:method(args)`, which passes recv as the first
// argument.
type MethodCallExpr struct {
	Span
	Recv   Expr
	Method *Ident
	Args   []Expr
}

// IndexExpr is `x[i]`.
type IndexExpr struct {
	Span
	X, Index Expr
}

// FieldExpr is `x.name`.
type FieldExpr struct {
	Span
	X     Expr
	Field *Ident
}

// FuncLit is `func(params) { body }`.
type FuncLit struct {
	Span
	Params *Params
	Body   *Block
}

// FieldKind tells table entry spellings apart.
type FieldKind uint8

const (
	// FieldNamed is `name: v`.
	FieldNamed FieldKind = iota
	// FieldString is `"key": v`.
	FieldString
	// FieldComputed is `[expr]: v`.
	FieldComputed
	// FieldPositional is a bare value (a list entry in `{...}`, which the
	// linter warns about).
	FieldPositional
)

var fieldKindNames = [...]string{"named", "string", "computed", "positional"}

// String names the kind.
func (k FieldKind) String() string {
	if int(k) < len(fieldKindNames) {
		return fieldKindNames[k]
	}
	return "unknown"
}

// TableField is one entry of a table. Name is set for FieldNamed and
// FieldString (the key's text); Key is the key node (nil when positional).
type TableField struct {
	Span
	Kind  FieldKind
	Name  string
	Key   Expr
	Value Expr
}

// TableExpr is `{ entries }`, also the body of tagged blocks.
type TableExpr struct {
	Span
	Fields []*TableField
}

// Lookup returns the first named or string-keyed field called name.
func (t *TableExpr) Lookup(name string) *TableField {
	if t == nil {
		return nil
	}
	for _, f := range t.Fields {
		if (f.Kind == FieldNamed || f.Kind == FieldString) && f.Name == name {
			return f
		}
	}
	return nil
}

// ListExpr is `[a, b]`.
type ListExpr struct {
	Span
	Elems []Expr
}

// DenseArray is `[n]type{...}`; Size is nil when the brackets are empty.
type DenseArray struct {
	Span
	Size     Expr
	ElemType string
	Body     *TableExpr
}

// TaggedBlock is `tag { fields }` or `tag! { fields }`: the current AI forms
// (model, tool, turn, prompt), the legacy models and messages blocks, and
// any generic dialect. Kind and Form come from the tag (see ClassifyTag).
type TaggedBlock struct {
	Span
	Tag  *Ident
	Bang bool
	Body *TableExpr
	Kind DialectKind
	Form Form
}

// TaggedString is tag`...`, tag!`...`, tag```...``` or $`...`. Tag is nil
// for the shell form, whose Kind is DialectShell. The q dialect's raw brace
// block, `q { raw q source }` or `q! {...}`, is a TaggedString too, with
// Block set: it means exactly what q`...` with the same text means.
type TaggedString struct {
	Span
	Tag    *Ident
	Bang   bool
	Fenced bool
	// Block marks the raw brace form `q { ... }`.
	Block bool
	Parts []StringPart
	Kind  DialectKind
}

// QuoteBlock is `quote { statements }` (or `quote! {...}`), or a quote of
// table fields, `quote { body: {...} }`, when the first entry is a key.
// Exactly one of Body and Fields is set.
type QuoteBlock struct {
	Span
	Bang   bool
	Body   *Block
	Fields *TableExpr
}

// AgentExpr is `agent {...}` (FormCurrent: name, config or declarative
// fields, optional flow field) or a legacy agent literal
// `agent(params) { config } [flow {...}]` / `agent { config } flow {...}`
// (FormLegacy). Params and Flow are nil when absent.
type AgentExpr struct {
	Span
	Params *Params
	Config *TableExpr
	Flow   *Block
	Form   Form
}

func (*IntLit) exprNode()         {}
func (*FloatLit) exprNode()       {}
func (*DurationLit) exprNode()    {}
func (*BoolLit) exprNode()        {}
func (*NilLit) exprNode()         {}
func (*VarargExpr) exprNode()     {}
func (*ChanExpr) exprNode()       {}
func (*StringLit) exprNode()      {}
func (*ParenExpr) exprNode()      {}
func (*UnaryExpr) exprNode()      {}
func (*BinaryExpr) exprNode()     {}
func (*CallExpr) exprNode()       {}
func (*MethodCallExpr) exprNode() {}
func (*IndexExpr) exprNode()      {}
func (*FieldExpr) exprNode()      {}
func (*FuncLit) exprNode()        {}
func (*TableExpr) exprNode()      {}
func (*ListExpr) exprNode()       {}
func (*DenseArray) exprNode()     {}
func (*TaggedBlock) exprNode()    {}
func (*TaggedString) exprNode()   {}
func (*QuoteBlock) exprNode()     {}
func (*AgentExpr) exprNode()      {}
