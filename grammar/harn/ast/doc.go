// Package ast is the typed syntax tree of Harn, lowered from the tree-sitter
// tree of grammar/harn. The checker (types, narrowing, evaluation sites) and
// the interpreter both read it.
//
// Every node records its byte span in the source. Node types mirror the
// grammar's node types one to one (each type's comment names the grammar
// node it comes from), so lowering is a mechanical walk over fields; the few
// places where the AST is flatter than the tree (union types, binary
// operators, string parts) say so.
//
// Invariants: the package does no IO and knows nothing of tree-sitter;
// lowering is total, so an ERROR region of the tree becomes an *Error node
// with its span wherever a statement, expression, type or pattern was
// expected, never a panic. Comments are kept in File.Comments in source order
// for the formatter and hover.
package ast
