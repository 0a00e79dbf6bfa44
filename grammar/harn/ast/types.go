package ast

// NamedType is a type name, possibly generic: `int`, `Result<T, E>`,
// `tuple<A, B>` (grammar `type_identifier` or `generic_type`). Builtin names
// (`int`, `nil`, `any`...) are NamedTypes too; the checker resolves them.
type NamedType struct {
	Span Span
	Name *Ident
	Args []Type
}

// ListType is the shorthand `[T]` for `list<T>` (grammar `list_type`).
type ListType struct {
	Span    Span
	Element Type
}

// ShapeType is a record shape `{name: string, age?: int}` (grammar
// `shape_type`).
type ShapeType struct {
	Span   Span
	Fields []*ShapeField
}

// ShapeField is one field of a shape; Name holds the field name whether it
// was written bare or quoted (grammar `shape_field`).
type ShapeField struct {
	Span     Span
	Name     string
	NameSpan Span
	Optional bool
	Type     Type
}

// UnionType is `A | B | C`. The grammar nests binary `union_type` nodes;
// lowering flattens them into one member list in source order.
type UnionType struct {
	Span    Span
	Members []Type
}

// IntersectionType is `A & B & C`, flattened like UnionType (grammar
// `intersection_type`).
type IntersectionType struct {
	Span    Span
	Members []Type
}

// OptionalType is `T?`, sugar for `T | nil` (grammar `optional_type`).
type OptionalType struct {
	Span Span
	Type Type
}

// LiteralType is a string or integer literal used as a type (grammar
// `literal_type`). Value is a *StringLit or an *IntLit; Negative is set for
// `-1`.
type LiteralType struct {
	Span     Span
	Value    Expr
	Negative bool
}

// FuncType is `fn(A, B) -> R` (grammar `function_type`).
type FuncType struct {
	Span   Span
	Params []Type
	Result Type // nil when omitted
}

// Parenthesized types `(T)` lower to T itself with the parentheses' span
// folded into nothing: they carry no meaning.

func (n *NamedType) Pos() Span        { return n.Span }
func (n *ListType) Pos() Span         { return n.Span }
func (n *ShapeType) Pos() Span        { return n.Span }
func (n *ShapeField) Pos() Span       { return n.Span }
func (n *UnionType) Pos() Span        { return n.Span }
func (n *IntersectionType) Pos() Span { return n.Span }
func (n *OptionalType) Pos() Span     { return n.Span }
func (n *LiteralType) Pos() Span      { return n.Span }
func (n *FuncType) Pos() Span         { return n.Span }

func (*NamedType) typeNode()        {}
func (*ListType) typeNode()         {}
func (*ShapeType) typeNode()        {}
func (*UnionType) typeNode()        {}
func (*IntersectionType) typeNode() {}
func (*OptionalType) typeNode()     {}
func (*LiteralType) typeNode()      {}
func (*FuncType) typeNode()         {}
