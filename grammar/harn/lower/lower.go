// Package lower turns a Harn concrete syntax tree (from the tree-sitter
// parser generated from grammar/harn/grammar.js) into the typed tree of
// package ast.
//
// It reads the tree through the small Node interface, so it depends on no
// tree-sitter binding: the Go binding adapts its node type, and tests feed
// trees decoded from a dump. Lowering follows the grammar's field names; it
// never indexes children by position.
//
// Invariants: lowering is total. Any input tree, however broken, gives an
// *ast.File; an ERROR or MISSING node, or a required child that is absent,
// becomes an *ast.Error with a span, and File.Errors lists the tree's
// outermost ERROR and MISSING nodes in source order. Lowering never panics
// on a well-formed Node implementation and does no IO.
package lower

import (
	"strings"
	"sync"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/tsnode"
)

// Node is the read-only view of a syntax tree node that lowering needs:
// the one node interface of both grammars (tsnode.Node), which
// grammar/tsbind implements over live and copied tree-sitter trees.
type Node = tsnode.Node

// File lowers a `source_file` tree of src.
func File(src []byte, root Node) *ast.File {
	l := &lowerer{src: src, scratch: scratchPool.Get().(*scratch)}
	defer l.release()
	// The file spans the whole source: the root node stops at the last
	// token, and recovery may place MISSING nodes after it.
	f := &ast.File{Span: ast.Span{Start: 0, End: len(src)}}
	l.file = f
	l.collect(root, false)
	for _, c := range l.children(root) {
		if c.node.Kind() == "shebang" {
			f.Shebang = strings.TrimRight(l.text(c.node), "\r")
			continue
		}
		f.Items = append(f.Items, l.stmt(c.node))
	}
	return f
}

type lowerer struct {
	src     []byte
	file    *ast.File
	scratch *scratch
}

// release hands the scratch arrays on, emptied (so that they keep no
// tree alive), once no result carved from them is in use.
func (l *lowerer) release() {
	sc := l.scratch
	clear(sc.kids)
	clear(sc.nodes)
	sc.kids, sc.nodes = sc.kids[:0], sc.nodes[:0]
	l.scratch = nil
	scratchPool.Put(sc)
}

// child is one non-extra child of a node with its field name.
type child struct {
	node  Node
	field string
}

func (l *lowerer) span(n Node) ast.Span {
	s, e := n.StartByte(), n.EndByte()
	s = min(max(s, 0), len(l.src))
	e = min(max(e, 0), len(l.src))
	if e < s {
		e = s
	}
	return ast.Span{Start: s, End: e}
}

func (l *lowerer) text(n Node) string {
	s := l.span(n)
	return string(l.src[s.Start:s.End])
}

// textOf is text for an optional node: "" when n is nil.
func (l *lowerer) textOf(n Node) string {
	if n == nil {
		return ""
	}
	return l.text(n)
}

// collect gathers comments and the outermost ERROR and MISSING nodes.
func (l *lowerer) collect(n Node, inError bool) {
	switch {
	case n.Kind() == "line_comment" || n.Kind() == "block_comment":
		l.file.Comments = append(l.file.Comments, &ast.Comment{
			Span:  l.span(n),
			Block: n.Kind() == "block_comment",
			Text:  l.text(n),
		})
		return
	case !inError && (n.IsError() || n.IsMissing()):
		e := &ast.Error{Span: l.span(n)}
		if n.IsMissing() {
			e.Missing = n.Kind()
		}
		l.file.Errors = append(l.file.Errors, e)
		inError = true
	}
	for i := 0; i < n.ChildCount(); i++ {
		if c := n.Child(i); c != nil {
			l.collect(c, inError)
		}
	}
}

// scratch holds the arrays children, unfielded and fields carve their
// results from. Every caller only ranges over a result, so a lowering
// hands its arrays on to the next one (scratchPool) when it ends.
type scratch struct {
	kids  []child
	nodes []Node
}

// scratchPool passes the scratch arrays from one lowering to the next.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// minChunk is the least length of a new scratch array.
const minChunk = 256

// grow returns a slice with room for count more elements after s's:
// s itself, or a new array (twice as long, at least minChunk) when s is
// full. The results carved from the old array stay valid.
func grow[T any](s []T, count int) []T {
	if cap(s)-len(s) >= count {
		return s
	}
	return make([]T, 0, max(2*cap(s), count, minChunk))
}

// children returns the named, non-extra children of n, ERROR nodes
// included, with their field names. It, unfielded and fields carve their
// results from the lowering's scratch arrays, capped (appending to a
// result copies it), and valid until the lowering ends: a slice made for
// each node was a tenth of the objects a check of many files allocated.
func (l *lowerer) children(n Node) []child {
	count := n.ChildCount()
	buf := grow(l.scratch.kids, count)
	start := len(buf)
	for i := 0; i < count; i++ {
		c := n.Child(i)
		// Recovery marks the ERROR nodes it builds from skipped tokens as
		// extras; they still stand where a child was expected.
		if c == nil || (c.IsExtra() && !c.IsError()) || (!c.IsNamed() && !c.IsError()) {
			continue
		}
		buf = append(buf, child{c, n.FieldNameForChild(i)})
	}
	l.scratch.kids = buf
	return buf[start:len(buf):len(buf)]
}

// unfielded returns the named children without a field name.
func (l *lowerer) unfielded(n Node) []Node {
	count := n.ChildCount()
	buf := grow(l.scratch.nodes, count)
	start := len(buf)
	for i := 0; i < count; i++ {
		c := n.Child(i)
		// The children children returns, without a field name.
		if c == nil || (c.IsExtra() && !c.IsError()) || (!c.IsNamed() && !c.IsError()) {
			continue
		}
		if n.FieldNameForChild(i) == "" {
			buf = append(buf, c)
		}
	}
	l.scratch.nodes = buf
	return buf[start:len(buf):len(buf)]
}

// field returns the first child (named or not) with the given field.
func (l *lowerer) field(n Node, name string) Node {
	for i := 0; i < n.ChildCount(); i++ {
		if n.FieldNameForChild(i) == name {
			if c := n.Child(i); c != nil {
				return c
			}
		}
	}
	return nil
}

// fields returns every child with the given field, in order.
func (l *lowerer) fields(n Node, name string) []Node {
	count := n.ChildCount()
	buf := grow(l.scratch.nodes, count)
	start := len(buf)
	for i := 0; i < count; i++ {
		if n.FieldNameForChild(i) == name {
			if c := n.Child(i); c != nil {
				buf = append(buf, c)
			}
		}
	}
	l.scratch.nodes = buf
	return buf[start:len(buf):len(buf)]
}

// hasToken reports whether n has an anonymous child with the given text.
func (l *lowerer) hasToken(n Node, tok string) bool {
	for i := 0; i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c != nil && !c.IsNamed() && !c.IsMissing() && c.Kind() == tok {
			return true
		}
	}
	return false
}

// fieldText joins the texts of the children of a field (for `not in`).
func (l *lowerer) fieldText(n Node, name string) string {
	var parts []string
	for _, c := range l.fields(n, name) {
		parts = append(parts, l.text(c))
	}
	return strings.Join(parts, " ")
}

// absent stands for a required child the tree does not have: an empty
// Error at the end of the parent.
func (l *lowerer) absent(parent Node, what string) *ast.Error {
	end := l.span(parent).End
	return &ast.Error{Span: ast.Span{Start: end, End: end}, Missing: what}
}

// errorNode lowers an ERROR or MISSING node, or a node of an unexpected
// kind, keeping what can be read inside it.
func (l *lowerer) errorNode(n Node) *ast.Error {
	e := &ast.Error{Span: l.span(n)}
	if n.IsMissing() {
		e.Missing = n.Kind()
		return e
	}
	for _, c := range l.children(n) {
		if c.node.IsError() || c.node.IsMissing() {
			continue
		}
		if s := l.stmt(c.node); !isError(s) {
			e.Partial = append(e.Partial, s)
		}
	}
	return e
}

func isError(n ast.Node) bool {
	_, ok := n.(*ast.Error)
	return ok
}

func (l *lowerer) ident(n Node) *ast.Ident {
	if n == nil {
		return nil
	}
	return &ast.Ident{Span: l.span(n), Name: l.text(n)}
}

// requiredIdent lowers a name the grammar requires; a missing one becomes an
// identifier with an empty name at the parent's end.
func (l *lowerer) requiredIdent(parent Node, field string) *ast.Ident {
	n := l.field(parent, field)
	if n == nil || n.IsMissing() || n.IsError() {
		end := l.span(parent).End
		if n != nil {
			return &ast.Ident{Span: l.span(n)}
		}
		return &ast.Ident{Span: ast.Span{Start: end, End: end}}
	}
	return l.ident(n)
}

func (l *lowerer) optExpr(n Node) ast.Expr {
	if n == nil {
		return nil
	}
	return l.expr(n)
}

func (l *lowerer) reqExpr(parent Node, field string) ast.Expr {
	n := l.field(parent, field)
	if n == nil {
		return l.absent(parent, field)
	}
	return l.expr(n)
}

func (l *lowerer) optType(n Node) ast.Type {
	if n == nil {
		return nil
	}
	return l.typ(n)
}

func (l *lowerer) reqType(parent Node, field string) ast.Type {
	n := l.field(parent, field)
	if n == nil {
		return l.absent(parent, field)
	}
	return l.typ(n)
}

func (l *lowerer) reqPattern(parent Node, field string) ast.Pattern {
	n := l.field(parent, field)
	if n == nil {
		return l.absent(parent, field)
	}
	return l.pattern(n)
}

// block lowers a `block`; an absent or broken one becomes an empty block
// (the tree's error is already in File.Errors).
func (l *lowerer) block(n Node) *ast.Block {
	if n == nil {
		return nil
	}
	b := &ast.Block{Span: l.span(n)}
	if n.Kind() != "block" {
		if !n.IsMissing() {
			b.Stmts = append(b.Stmts, l.errorNode(n))
		}
		return b
	}
	for _, c := range l.unfielded(n) {
		b.Stmts = append(b.Stmts, l.stmt(c))
	}
	return b
}

func (l *lowerer) reqBlock(parent Node, field string) *ast.Block {
	if b := l.block(l.field(parent, field)); b != nil {
		return b
	}
	end := l.span(parent).End
	return &ast.Block{Span: ast.Span{Start: end, End: end}}
}

func (l *lowerer) stringLit(n Node) *ast.StringLit {
	if n == nil {
		return nil
	}
	if s, ok := l.expr(n).(*ast.StringLit); ok {
		return s
	}
	return nil
}
