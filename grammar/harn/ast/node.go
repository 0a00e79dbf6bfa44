package ast

// Span is a half-open byte range [Start, End) of the source.
type Span struct {
	Start, End int
}

// Len is the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether byte offset off lies inside the span.
func (s Span) Contains(off int) bool { return off >= s.Start && off < s.End }

// Cover returns the smallest span holding both s and o.
func (s Span) Cover(o Span) Span {
	if o.Start < s.Start {
		s.Start = o.Start
	}
	if o.End > s.End {
		s.End = o.End
	}
	return s
}

// Node is any syntax tree node.
type Node interface {
	// Pos is the node's byte span.
	Pos() Span
}

// Stmt is a statement: a declaration, a binding, control flow or an
// expression evaluated for its effect (grammar supertype `_statement`).
type Stmt interface {
	Node
	stmtNode()
}

// Decl is a declaration (grammar supertype `_declaration`); every
// declaration may also appear where a statement may.
type Decl interface {
	Stmt
	declNode()
}

// Expr is an expression (grammar supertype `_expression`). Expressions
// may stand as statements.
type Expr interface {
	Stmt
	exprNode()
}

// Type is a type expression (grammar supertype `_type`).
type Type interface {
	Node
	typeNode()
}

// Pattern is a binding or match pattern (grammar supertype `_pattern`).
type Pattern interface {
	Node
	patternNode()
}

// Error stands for a region the parser could not read (an ERROR node, or a
// MISSING one). It satisfies every node interface so that lowering can put it
// wherever a child was expected. Partial holds the nodes that could still be
// lowered inside the region.
type Error struct {
	Span    Span
	Missing string // for a MISSING node, the grammar symbol it stands for
	Partial []Node
}

// Comment is a line comment (`// ...`) or a block comment (`/* ... */`,
// nesting). Text is the comment exactly as written.
type Comment struct {
	Span  Span
	Block bool
	Text  string
}

// Doc reports whether the comment is a doc comment (`/** ... */` or `///`).
func (c *Comment) Doc() bool {
	if c.Block {
		return len(c.Text) >= 5 && c.Text[:3] == "/**" && c.Text != "/**/"
	}
	return len(c.Text) >= 3 && c.Text[:3] == "///"
}

// Ident is a name (grammar `identifier`; in type position `type_identifier`).
type Ident struct {
	Span Span
	Name string
}

// File is a whole source file (grammar `source_file`).
type File struct {
	Span     Span
	Shebang  string // the `#!` line without its newline, or ""
	Items    []Stmt // imports, declarations and top-level statements in order
	Comments []*Comment
	// Errors lists every Error node of the file in source order, for the
	// syntax diagnostics.
	Errors []*Error
}

// Imports returns the file's import declarations in order.
func (f *File) Imports() []*Import {
	var out []*Import
	for _, it := range f.Items {
		if im, ok := it.(*Import); ok {
			out = append(out, im)
		}
	}
	return out
}

func (n *Error) Pos() Span   { return n.Span }
func (n *Comment) Pos() Span { return n.Span }
func (n *Ident) Pos() Span   { return n.Span }
func (n *File) Pos() Span    { return n.Span }

func (*Error) stmtNode()    {}
func (*Error) declNode()    {}
func (*Error) exprNode()    {}
func (*Error) typeNode()    {}
func (*Error) patternNode() {}
func (*Ident) stmtNode()    {}
func (*Ident) exprNode()    {}

// An identifier in pattern position binds the matched value.
func (*Ident) patternNode() {}
