package binding

import (
	"slices"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/lower"
	"github.com/harnlang/harn-check/grammar/tsflat"
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

// Expected implements syntaxdiag.Expecter for ERROR nodes. The slice is
// shared between nodes (see expectedIn) and must not be modified.
func (s *snap) Expected() []string {
	if s.flags&snapError == 0 {
		return nil
	}
	return expectedIn(s.state)
}

func (s *snap) Kind() string                   { return names.Symbol(s.sym) }
func (s *snap) StartByte() int                 { return int(s.start) }
func (s *snap) EndByte() int                   { return int(s.end) }
func (s *snap) IsNamed() bool                  { return s.flags&snapNamed != 0 }
func (s *snap) IsError() bool                  { return s.flags&snapError != 0 }
func (s *snap) IsMissing() bool                { return s.flags&snapMissing != 0 }
func (s *snap) IsExtra() bool                  { return s.flags&snapExtra != 0 }
func (s *snap) ChildCount() int                { return int(s.nkids) }
func (s *snap) Child(i int) lower.Node         { return s.tree.kids[s.kids+uint32(i)] }
func (s *snap) FieldNameForChild(i int) string { return names.Field(s.tree.fields[s.kids+uint32(i)]) }

// names are the Harn language's symbol and field names, read once.
var names = tsflat.NamesOf(language)

// walkBufs recycles the flat record arrays between snapshots.
var walkBufs = sync.Pool{New: func() any { return new([]tsflat.Record) }}

// maxPooledRecords is the largest record array kept for reuse: the pool
// would otherwise keep a huge file's array alive after its check.
const maxPooledRecords = 1 << 16

// putWalkBuf returns a record array to the pool, unless it is huge.
func putWalkBuf(bp *[]tsflat.Record, recs []tsflat.Record) {
	if cap(recs) > maxPooledRecords {
		return
	}
	*bp = recs[:0]
	walkBufs.Put(bp)
}

// Snapshot copies a tree into Go memory, for lowering and diagnostics. The
// tree is read in one cgo call (tsflat.Walk), plus one lookahead query per
// parse state of an ERROR node the first time that state is seen.
func Snapshot(tree *sitter.Tree) lower.Node {
	bp := walkBufs.Get().(*[]tsflat.Record)
	recs := tsflat.Walk(tree.RootNode(), *bp)
	root := build(recs)
	putWalkBuf(bp, recs)
	if root == nil {
		return nil // no typed nil inside the interface
	}
	return root
}

// build turns preorder records into snaps: one array of nodes, one of child
// pointers (each node's children contiguous, at offsets assigned in record
// order) and one of field ids.
func build(recs []tsflat.Record) *snap {
	return buildInto(new(snapTree), recs)
}

// snapTrees recycles snapshot arrays between files whose snapshot is
// dropped after lowering (lowerRecords): they were a tenth of the bytes a
// check of 10,000 files allocated.
var snapTrees = sync.Pool{New: func() any { return new(snapTree) }}

// putSnapTree returns t to snapTrees, unless it is huge.
func putSnapTree(t *snapTree) {
	if cap(t.nodes) > maxPooledRecords {
		return
	}
	snapTrees.Put(t)
}

// buildInto is build reusing t's arrays; the nodes of an earlier tree
// built into t become invalid.
func buildInto(t *snapTree, recs []tsflat.Record) *snap {
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
			expectedIn(r.LeafState) // look the state up while the tree is known
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

// expected caches expectedIn by parse state: the answer depends only on
// the language's tables.
var expected sync.Map // uint16 -> []string

// expectedIn lists the visible symbols the parser accepts in parse state
// state (for an ERROR node, the state of its first leaf): anonymous tokens
// in backquotes, named symbols by kind. The result is shared; callers must
// not modify it.
func expectedIn(state uint16) []string {
	if v, ok := expected.Load(state); ok {
		return v.([]string)
	}
	var out []string
	if it := language.LookaheadIterator(state); it != nil {
		for _, id := range it.Iter() {
			if !language.NodeKindIsVisible(id) {
				continue
			}
			name := language.NodeKindForId(id)
			if language.NodeKindIsNamed(id) {
				out = append(out, name)
			} else {
				out = append(out, "`"+name+"`")
			}
		}
		it.Close()
	}
	out = slices.Clip(out)
	expected.Store(state, out)
	return out
}
