package ast

// Import is `import "path"`, `import {a, b} from "path"`, `pub import ...`
// or the path form `import pkg::sub::{a, b}` (grammar `import_declaration`).
type Import struct {
	Span   Span
	Pub    bool
	Source *StringLit // the quoted module path; nil for the path form
	Path   []*Ident   // the `pkg::sub` segments of the path form
	// Names are the selected names; nil imports the whole module.
	Names []*Ident
}

// Attribute is `@name` or `@name(args)` (grammar `attribute`).
type Attribute struct {
	Span Span
	Name *Ident
	Args []*AttributeArg
}

// AttributeArg is one attribute argument, `value` or `name: value`
// (grammar `attribute_argument`).
type AttributeArg struct {
	Span  Span
	Name  *Ident // nil when positional
	Value Expr
}

// Pipeline is `pipeline name(params) [-> T] [extends parent] { ... }`
// (grammar `pipeline_declaration`).
type Pipeline struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	Params     []*Param
	ReturnType Type // nil when absent
	Parent     *Ident
	Body       *Block
}

// Override is `override name(params) { ... }` inside a child pipeline
// (grammar `override_declaration`).
type Override struct {
	Span   Span
	Name   *Ident
	Params []*Param
	Body   *Block
}

// FuncDecl is a named function (grammar `function_declaration`).
type FuncDecl struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Gen        bool // `gen fn`: a stream producer
	Name       *Ident
	TypeParams []*TypeParam
	Params     []*Param
	ReturnType Type // nil when absent
	Throws     Type // nil when absent
	Where      []*WherePredicate
	Body       *Block
}

// Param is a parameter of a function, pipeline, tool or closure (grammar
// `parameter`, `rest_parameter`, `closure_parameter`).
type Param struct {
	Span    Span
	Name    *Ident
	Type    Type // nil when unannotated
	Default Expr // nil when required
	Rest    bool // `...rest`
}

// Variance of a type parameter.
type Variance int

// Variances: none, `in` (contravariant), `out` (covariant).
const (
	Invariant Variance = iota
	In
	Out
)

// TypeParam is `T`, `in T` or `out T` (grammar `type_parameter`).
type TypeParam struct {
	Span     Span
	Variance Variance
	Name     *Ident
}

// WherePredicate is `T: A + B` in a where clause (grammar `where_predicate`).
type WherePredicate struct {
	Span   Span
	Name   *Ident
	Bounds []Type
}

// TypeAlias is `type Name<T> = T` (grammar `type_alias_declaration`).
type TypeAlias struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	TypeParams []*TypeParam
	Type       Type
}

// StructDecl is a struct declaration (grammar `struct_declaration`).
type StructDecl struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	TypeParams []*TypeParam
	Fields     []*StructField
}

// StructField is `name: T` or `name?: T` (grammar `struct_field`).
type StructField struct {
	Span     Span
	Name     *Ident
	Optional bool
	Type     Type
}

// EnumDecl is an enum declaration (grammar `enum_declaration`).
type EnumDecl struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	TypeParams []*TypeParam
	Variants   []*Variant
}

// Variant is `A`, `B(int, string)` or `C(x: float)` (grammar
// `enum_variant`).
type Variant struct {
	Span   Span
	Name   *Ident
	Fields []*VariantField // nil for a variant without payload
}

// VariantField is one payload field (grammar `variant_field`).
type VariantField struct {
	Span Span
	Name *Ident // nil for positional fields
	Type Type
}

// InterfaceDecl is an interface (grammar `interface_declaration`).
type InterfaceDecl struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	TypeParams []*TypeParam
	Types      []*AssociatedType
	Methods    []*MethodSig
}

// MethodSig is a method an interface requires (grammar `method_signature`).
type MethodSig struct {
	Span       Span
	Name       *Ident
	TypeParams []*TypeParam
	Params     []*Param
	ReturnType Type
	Throws     Type
}

// AssociatedType is `type Assoc [= Default]` in an interface (grammar
// `associated_type`).
type AssociatedType struct {
	Span    Span
	Name    *Ident
	Default Type
}

// ImplDecl is `impl Name { fn ... }` (grammar `impl_declaration`).
type ImplDecl struct {
	Span    Span
	Attrs   []*Attribute
	Type    *Ident
	Methods []*FuncDecl
}

// ToolDecl is `tool name(params) [-> T] { description "..." ... }`
// (grammar `tool_declaration`).
type ToolDecl struct {
	Span        Span
	Attrs       []*Attribute
	Pub         bool
	Name        *Ident
	Params      []*Param
	ReturnType  Type
	Throws      Type       // nil when absent
	Description *StringLit // nil when absent
	Body        []Stmt
}

// SkillDecl is `skill name { field expr ... }` (grammar
// `skill_declaration`).
type SkillDecl struct {
	Span   Span
	Attrs  []*Attribute
	Pub    bool
	Name   *Ident
	Fields []*SkillField
}

// SkillField is one `name expr` line of a skill (grammar `skill_field`).
type SkillField struct {
	Span  Span
	Name  *Ident
	Value Expr
}

// EvalPackDecl is `eval_pack Name ["id"] { ... }` (grammar
// `eval_pack_declaration`).
type EvalPackDecl struct {
	Span       Span
	Attrs      []*Attribute
	Pub        bool
	Name       *Ident
	ID         *StringLit // nil when absent
	Fields     []*EvalPackField
	Summarizes []*Block // bodies of `summarize { ... }`
	Body       []Stmt   // the pack's statements
}

// EvalPackField is `key: expr` in an eval pack (grammar `eval_pack_field`).
type EvalPackField struct {
	Span  Span
	Name  *Ident
	Value Expr
}

func (n *Import) Pos() Span         { return n.Span }
func (n *Attribute) Pos() Span      { return n.Span }
func (n *AttributeArg) Pos() Span   { return n.Span }
func (n *Pipeline) Pos() Span       { return n.Span }
func (n *Override) Pos() Span       { return n.Span }
func (n *FuncDecl) Pos() Span       { return n.Span }
func (n *Param) Pos() Span          { return n.Span }
func (n *TypeParam) Pos() Span      { return n.Span }
func (n *WherePredicate) Pos() Span { return n.Span }
func (n *TypeAlias) Pos() Span      { return n.Span }
func (n *StructDecl) Pos() Span     { return n.Span }
func (n *StructField) Pos() Span    { return n.Span }
func (n *EnumDecl) Pos() Span       { return n.Span }
func (n *Variant) Pos() Span        { return n.Span }
func (n *VariantField) Pos() Span   { return n.Span }
func (n *InterfaceDecl) Pos() Span  { return n.Span }
func (n *MethodSig) Pos() Span      { return n.Span }
func (n *AssociatedType) Pos() Span { return n.Span }
func (n *ImplDecl) Pos() Span       { return n.Span }
func (n *ToolDecl) Pos() Span       { return n.Span }
func (n *SkillDecl) Pos() Span      { return n.Span }
func (n *SkillField) Pos() Span     { return n.Span }
func (n *EvalPackDecl) Pos() Span   { return n.Span }
func (n *EvalPackField) Pos() Span  { return n.Span }

func (*Import) stmtNode()        {}
func (*Pipeline) stmtNode()      {}
func (*Override) stmtNode()      {}
func (*FuncDecl) stmtNode()      {}
func (*TypeAlias) stmtNode()     {}
func (*StructDecl) stmtNode()    {}
func (*EnumDecl) stmtNode()      {}
func (*InterfaceDecl) stmtNode() {}
func (*ImplDecl) stmtNode()      {}
func (*ToolDecl) stmtNode()      {}
func (*SkillDecl) stmtNode()     {}
func (*EvalPackDecl) stmtNode()  {}

func (*Import) declNode()        {}
func (*Pipeline) declNode()      {}
func (*Override) declNode()      {}
func (*FuncDecl) declNode()      {}
func (*TypeAlias) declNode()     {}
func (*StructDecl) declNode()    {}
func (*EnumDecl) declNode()      {}
func (*InterfaceDecl) declNode() {}
func (*ImplDecl) declNode()      {}
func (*ToolDecl) declNode()      {}
func (*SkillDecl) declNode()     {}
func (*EvalPackDecl) declNode()  {}

func (v Variance) String() string {
	switch v {
	case In:
		return "in"
	case Out:
		return "out"
	}
	return "invariant"
}
