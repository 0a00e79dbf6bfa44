// Package tsnode is the one interface through which both languages'
// lowerings (grammar/harn/lower, grammar/leia/ast) and Harn's syntax
// diagnostics read a tree-sitter syntax tree: a node's kind, byte span,
// flags, children and field names. grammar/tsbind implements it, over a
// live tree-sitter node (Wrap) or over a Go copy of a tree (Snapshot);
// tests implement it with hand-built fakes.
//
// Invariants: pure Go, no imports; offsets are byte offsets into the
// parsed source, as int (the source is a []byte).
package tsnode

// Node is one node of a syntax tree.
type Node interface {
	// Kind is the node's type name (an alias name where the grammar
	// aliases; for anonymous nodes, their text).
	Kind() string
	// StartByte is the offset of the node's first byte.
	StartByte() int
	// EndByte is the offset just past the node.
	EndByte() int
	// IsNamed reports a named node (not an anonymous token).
	IsNamed() bool
	// IsError reports an ERROR node.
	IsError() bool
	// IsMissing reports a zero-width node the parser inserted.
	IsMissing() bool
	// IsExtra reports a node the grammar allows anywhere (a comment).
	IsExtra() bool
	// ChildCount counts all children, named or not.
	ChildCount() int
	// Child returns child i (0 <= i < ChildCount()).
	Child(i int) Node
	// FieldNameForChild returns the field name of child i, or "".
	FieldNameForChild(i int) string
}
