package binding

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/tsflat"
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

// names are the Leia language's symbol and field names, read once.
var names = tsflat.NamesOf(language)

// walkBufs recycles the flat record arrays between snapshots.
var walkBufs = sync.Pool{New: func() any { return new([]tsflat.Record) }}

// Snapshot copies the tree under root into Go memory, reading the tree in
// one cgo call (tsflat.Walk). The copy stays valid after the tree is
// closed.
func Snapshot(root *sitter.Node) ast.TreeNode {
	if root == nil {
		return nil
	}
	bp := walkBufs.Get().(*[]tsflat.Record)
	recs := tsflat.Walk(root, *bp)
	s := build(recs)
	*bp = recs[:0]
	walkBufs.Put(bp)
	if s == nil {
		return nil
	}
	return s
}

// build turns preorder records into snapNodes. All nodes share one
// backing array, as do all child lists and all field lists; each list is
// capped at its own length, so appending to one copies instead of
// overwriting a neighbour.
func build(recs []tsflat.Record) *snapNode {
	if len(recs) == 0 {
		return nil
	}
	nodes := make([]snapNode, len(recs))
	kids := make([]*snapNode, len(recs)-1)
	fields := make([]string, len(recs)-1)
	off := 0
	for i := range recs {
		r := &recs[i]
		s := &nodes[i]
		s.kind = names.Symbol(r.Symbol)
		s.start, s.end = uint(r.StartByte), uint(r.EndByte)
		s.named = r.Flags&tsflat.Named != 0
		s.isErr = r.Flags&tsflat.Error != 0
		s.missing = r.Flags&tsflat.Missing != 0
		if k := int(r.ChildCount); k > 0 {
			s.kids = kids[off : off : off+k]
			s.fields = fields[off : off : off+k]
			off += k
		}
		if r.Parent != tsflat.NoParent {
			p := &nodes[r.Parent]
			p.kids = append(p.kids, s)
			p.fields = append(p.fields, names.Field(r.Field))
		}
	}
	return &nodes[0]
}
