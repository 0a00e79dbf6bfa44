package harn

import (
	"github.com/harnlang/harn-check/format/doc"
	"github.com/harnlang/harn-check/format/internal/cst"
)

func registerStmts(plain, aware func(string, func(*formatter, *cst.Node) *doc.Doc)) {
	aware("select_statement", (*formatter).selectStmt)
	aware("block_statement", (*formatter).blockStmt)
}

// selectStmt lays out `select {` cases `}`.
func (f *formatter) selectStmt(n *cst.Node) *doc.Doc {
	open, inner := braced(n)
	if open == nil {
		return f.generic(n)
	}
	for _, k := range n.Kids {
		if k == open {
			break
		}
		if isComment(k) {
			return f.generic(n)
		}
	}
	return f.block(f.d.Text("select {"), open.End, inner, f.node)
}

// blockStmt lays out `block {` statements `}`.
func (f *formatter) blockStmt(n *cst.Node) *doc.Doc {
	open, inner := braced(n)
	if open == nil {
		return f.generic(n)
	}
	return f.block(f.d.Text("block {"), open.End, inner, f.node)
}
