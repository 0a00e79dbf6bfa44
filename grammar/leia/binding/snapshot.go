package binding

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// snapNode is a Go copy of one tree-sitter node. Lowering reads every node
// several times; reading a copy avoids a cgo call per access.
type snapNode struct {
	kind           string
	start, end     uint
	named          bool
	isErr, missing bool
	kids           []*snapNode
	fields         []string
}

func (s *snapNode) Kind() string    { return s.kind }
func (s *snapNode) StartByte() uint { return s.start }
func (s *snapNode) EndByte() uint   { return s.end }
func (s *snapNode) IsNamed() bool   { return s.named }
func (s *snapNode) IsError() bool   { return s.isErr }
func (s *snapNode) IsMissing() bool { return s.missing }
func (s *snapNode) ChildCount() int { return len(s.kids) }
func (s *snapNode) FieldNameForChild(i int) string {
	if i < 0 || i >= len(s.fields) {
		return ""
	}
	return s.fields[i]
}
func (s *snapNode) Child(i int) ast.TreeNode {
	if i < 0 || i >= len(s.kids) {
		return nil
	}
	return s.kids[i]
}

// Snapshot copies the tree under root into Go memory with one cursor walk.
// The copy stays valid after the tree is closed.
func Snapshot(root *sitter.Node) ast.TreeNode {
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
	var build func() *snapNode
	build = func() *snapNode {
		n := c.Node()
		id := n.KindId()
		sym, ok := symbols[id]
		if !ok {
			sym = symbol{kind: n.Kind(), named: n.IsNamed()}
			symbols[id] = sym
		}
		s := &snapNode{kind: sym.kind, start: n.StartByte(), end: n.EndByte(), named: sym.named}
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
