package binding

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// This file keeps the previous Snapshot, a Go cursor walk with several cgo
// calls per node, as the reference the one-call Snapshot is tested against
// (TestSnapshotMatchesReference) and measured against (BenchmarkSnapshotRatio).

// refNode is the reference's copy of one tree-sitter node.
type refNode struct {
	kind           string
	start, end     int
	named          bool
	isErr, missing bool
	kids           []*refNode
	fields         []string
}

func (s *refNode) Kind() string    { return s.kind }
func (s *refNode) StartByte() int  { return s.start }
func (s *refNode) EndByte() int    { return s.end }
func (s *refNode) IsNamed() bool   { return s.named }
func (s *refNode) IsError() bool   { return s.isErr }
func (s *refNode) IsMissing() bool { return s.missing }
func (s *refNode) IsExtra() bool   { return false }
func (s *refNode) ChildCount() int { return len(s.kids) }
func (s *refNode) FieldNameForChild(i int) string {
	if i < 0 || i >= len(s.fields) {
		return ""
	}
	return s.fields[i]
}
func (s *refNode) Child(i int) ast.TreeNode {
	if i < 0 || i >= len(s.kids) {
		return nil
	}
	return s.kids[i]
}

// refSnapshot is the previous Snapshot.
func refSnapshot(root *sitter.Node) *refNode {
	if root == nil {
		return nil
	}
	c := root.Walk()
	defer c.Close()
	// Kind and namedness depend only on the symbol, so they are read once
	// per symbol; MISSING nodes exist only in a tree with errors. Every
	// call saved here is a cgo call saved per node.
	type symbol struct {
		kind  string
		named bool
	}
	symbols := map[uint16]symbol{}
	hasError := root.HasError()
	var build func() *refNode
	build = func() *refNode {
		n := c.Node()
		id := n.KindId()
		sym, ok := symbols[id]
		if !ok {
			sym = symbol{kind: n.Kind(), named: n.IsNamed()}
			symbols[id] = sym
		}
		s := &refNode{kind: sym.kind, start: int(n.StartByte()), end: int(n.EndByte()), named: sym.named}
		if hasError {
			s.isErr, s.missing = n.IsError(), n.IsMissing()
		}
		if c.GotoFirstChild() {
			for {
				field := c.FieldName()
				s.kids = append(s.kids, build())
				s.fields = append(s.fields, field)
				if !c.GotoNextSibling() {
					break
				}
			}
			c.GotoParent()
		}
		return s
	}
	return build()
}
