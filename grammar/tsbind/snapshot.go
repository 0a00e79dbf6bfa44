package tsbind

import (
	"slices"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsnode"
)

// snap is a Go copy of one tree node. Lowering asks for children and field
// names many times; reading them from a copy costs no cgo calls. A snap is
// 32 bytes: names are symbol and field ids looked up in the language's
// tables, children live in one array shared by the whole tree, and an
// ERROR node's expected symbols are computed from its parse state when
// asked for (a file of several MiB has millions of nodes).
type snap struct {
	tree       *snapTree
	start, end int32
	// kids is the offset of the node's children in tree.kids, nkids
	// their count.
	kids, nkids uint32
	sym         uint16
	// state is an ERROR node's first-leaf parse state (see Expected).
	state uint16
	flags uint8
}

// snapTree holds what the nodes of one snapshot share.
type snapTree struct {
	g     *Grammar
	names *tsflat.Names // g.Names()
	nodes []snap
	// kids holds every child list, each contiguous; fields holds the field
	// id of each entry of kids.
	kids   []*snap
	fields []uint16
}

const (
	snapNamed = 1 << iota
	snapError
	snapMissing
	snapExtra
)

// Expected lists, for an ERROR node, the symbols the parser accepted
// where the error begins (Grammar.Expected of its first leaf's state); nil
// for other nodes. The slice is shared and must not be modified.
func (s *snap) Expected() []string {
	if s.flags&snapError == 0 {
		return nil
	}
	return s.tree.g.Expected(s.state)
}

func (s *snap) Kind() string            { return s.tree.names.Symbol(s.sym) }
func (s *snap) StartByte() int          { return int(s.start) }
func (s *snap) EndByte() int            { return int(s.end) }
func (s *snap) IsNamed() bool           { return s.flags&snapNamed != 0 }
func (s *snap) IsError() bool           { return s.flags&snapError != 0 }
func (s *snap) IsMissing() bool         { return s.flags&snapMissing != 0 }
func (s *snap) IsExtra() bool           { return s.flags&snapExtra != 0 }
func (s *snap) ChildCount() int         { return int(s.nkids) }
func (s *snap) Child(i int) tsnode.Node { return s.tree.kids[s.kids+uint32(i)] }
func (s *snap) FieldNameForChild(i int) string {
	return s.tree.names.Field(s.tree.fields[s.kids+uint32(i)])
}

// walkBufs recycles the flat record arrays between snapshots.
var walkBufs = sync.Pool{New: func() any { return new([]tsflat.Record) }}

// maxPooled is the largest array (records or snapshot nodes) kept for
// reuse: the pool would otherwise keep a huge file's arrays alive after
// its check.
const maxPooled = 1 << 16

// Records copies the tree under root into flat records (tsflat.Walk, one
// cgo call) in a buffer recycled between files. release gives the buffer
// back; the records must not be used after it.
func Records(root *sitter.Node) (recs []tsflat.Record, release func()) {
	bp := walkBufs.Get().(*[]tsflat.Record)
	recs = tsflat.Walk(root, *bp)
	if cap(recs) > maxPooled {
		// Too large to keep for the next file: the pool gets its buffer
		// back now and release holds nothing, so the records can be
		// collected as soon as the caller is done with them (a large
		// file's lowering does not keep them beside its snapshot: 30 MiB
		// for a 3 MiB Harn file).
		walkBufs.Put(bp)
		return recs, func() {}
	}
	return recs, func() {
		*bp = recs[:0]
		walkBufs.Put(bp)
	}
}

// Snapshot copies the tree under root into Go memory, for lowering and
// diagnostics. The tree is read in one cgo call (tsflat.Walk), plus one
// lookahead query per parse state of an ERROR node the first time that
// state is seen. The copy stays valid after the tree is closed.
func (g *Grammar) Snapshot(root *sitter.Node) tsnode.Node {
	if root == nil {
		return nil
	}
	recs, release := Records(root)
	s := g.Build(recs)
	release()
	if s == nil {
		return nil // no typed nil inside the interface
	}
	return s
}

// Build turns preorder records into a snapshot and returns its root (nil
// for no records).
func (g *Grammar) Build(recs []tsflat.Record) tsnode.Node {
	if s := buildInto(&snapTree{g: g}, recs); s != nil {
		return s
	}
	return nil
}

// snapTrees recycles snapshot arrays between files whose snapshot is
// dropped after lowering (WithSnapshot): they were a tenth of the bytes a
// check of 10,000 files allocated.
var snapTrees = sync.Pool{New: func() any { return new(snapTree) }}

// WithSnapshot builds the snapshot of recs in recycled arrays and calls f
// with its root (nil for no records). Neither the root nor any node under
// it may be kept after f returns.
func (g *Grammar) WithSnapshot(recs []tsflat.Record, f func(root tsnode.Node)) {
	t := snapTrees.Get().(*snapTree)
	t.g = g
	defer func() {
		if cap(t.nodes) <= maxPooled {
			snapTrees.Put(t)
		}
	}()
	if s := buildInto(t, recs); s != nil {
		f(s)
		return
	}
	f(nil)
}

// buildInto turns preorder records into snaps: one array of nodes, one of
// child pointers (each node's children contiguous, at offsets assigned in
// record order) and one of field ids, reusing t's arrays; the nodes of an
// earlier tree built into t become invalid.
func buildInto(t *snapTree, recs []tsflat.Record) *snap {
	t.names = t.g.Names()
	if len(recs) == 0 {
		return nil
	}
	n := len(recs)
	t.nodes = slices.Grow(t.nodes[:0], n)[:n]
	clear(t.nodes)
	t.kids = slices.Grow(t.kids[:0], n-1)[:n-1]
	t.fields = slices.Grow(t.fields[:0], n-1)[:n-1]
	off := uint32(0)
	for i := range recs {
		r := &recs[i]
		s := &t.nodes[i]
		s.tree = t
		s.sym = r.Symbol
		s.start, s.end = int32(r.StartByte), int32(r.EndByte)
		if r.Flags&tsflat.Named != 0 {
			s.flags |= snapNamed
		}
		if r.Flags&tsflat.Error != 0 {
			s.flags |= snapError
			s.state = r.LeafState
			t.g.Expected(r.LeafState) // look the state up while the tree is known
		}
		if r.Flags&tsflat.Missing != 0 {
			s.flags |= snapMissing
		}
		if r.Flags&tsflat.Extra != 0 {
			s.flags |= snapExtra
		}
		s.kids = off
		off += r.ChildCount
		if r.Parent != tsflat.NoParent {
			p := &t.nodes[r.Parent]
			t.kids[p.kids+p.nkids] = s
			t.fields[p.kids+p.nkids] = r.Field
			p.nkids++
		}
	}
	return &t.nodes[0]
}
