package binding

import (
	"slices"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/lower"
	"github.com/harnlang/harn-check/grammar/tsflat"
)

// snap is a Go copy of one tree node. Lowering asks for children and field
// names many times; reading them from a copy costs no cgo calls.
type snap struct {
	kind                       string
	start, end                 int
	named, err, missing, extra bool
	fields                     []string
	children                   []*snap
	expected                   []string
}

// Expected implements syntaxdiag.Expecter for ERROR nodes. The slice is
// shared between nodes (see expectedIn) and must not be modified.
func (s *snap) Expected() []string { return s.expected }

func (s *snap) Kind() string                   { return s.kind }
func (s *snap) StartByte() int                 { return s.start }
func (s *snap) EndByte() int                   { return s.end }
func (s *snap) IsNamed() bool                  { return s.named }
func (s *snap) IsError() bool                  { return s.err }
func (s *snap) IsMissing() bool                { return s.missing }
func (s *snap) IsExtra() bool                  { return s.extra }
func (s *snap) ChildCount() int                { return len(s.children) }
func (s *snap) Child(i int) lower.Node         { return s.children[i] }
func (s *snap) FieldNameForChild(i int) string { return s.fields[i] }

// names are the Harn language's symbol and field names, read once.
var names = tsflat.NamesOf(language)

// walkBufs recycles the flat record arrays between snapshots.
var walkBufs = sync.Pool{New: func() any { return new([]tsflat.Record) }}

// Snapshot copies a tree into Go memory, for lowering and diagnostics. The
// tree is read in one cgo call (tsflat.Walk), plus one lookahead query per
// parse state of an ERROR node the first time that state is seen.
func Snapshot(tree *sitter.Tree) lower.Node {
	bp := walkBufs.Get().(*[]tsflat.Record)
	recs := tsflat.Walk(tree.RootNode(), *bp)
	root := build(recs)
	*bp = recs[:0]
	walkBufs.Put(bp)
	if root == nil {
		return nil // no typed nil inside the interface
	}
	return root
}

// build turns preorder records into snaps. All nodes share one backing
// array, as do all child lists and all field lists; each list is capped at
// its own length, so appending to one copies instead of overwriting a
// neighbour.
func build(recs []tsflat.Record) *snap {
	if len(recs) == 0 {
		return nil
	}
	nodes := make([]snap, len(recs))
	kids := make([]*snap, len(recs)-1)
	fields := make([]string, len(recs)-1)
	off := 0
	for i := range recs {
		r := &recs[i]
		s := &nodes[i]
		s.kind = names.Symbol(r.Symbol)
		s.start, s.end = int(r.StartByte), int(r.EndByte)
		s.named = r.Flags&tsflat.Named != 0
		s.err = r.Flags&tsflat.Error != 0
		s.missing = r.Flags&tsflat.Missing != 0
		s.extra = r.Flags&tsflat.Extra != 0
		if s.err {
			s.expected = expectedIn(r.LeafState)
		}
		if k := int(r.ChildCount); k > 0 {
			s.children = kids[off : off : off+k]
			s.fields = fields[off : off : off+k]
			off += k
		}
		if r.Parent != tsflat.NoParent {
			p := &nodes[r.Parent]
			p.children = append(p.children, s)
			p.fields = append(p.fields, names.Field(r.Field))
		}
	}
	return &nodes[0]
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
