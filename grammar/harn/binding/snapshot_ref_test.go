package binding

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/lower"
)

// This file keeps the previous Snapshot, a Go cursor walk with several cgo
// calls per node, as the reference the one-call Snapshot is tested against
// (TestSnapshotMatchesReference) and measured against (BenchmarkSnapshot).

// refSnap is the reference's copy of one tree node.
type refSnap struct {
	kind                       string
	start, end                 int
	named, err, missing, extra bool
	fields                     []string
	children                   []*refSnap
	expected                   []string
}

func (s *refSnap) Expected() []string             { return s.expected }
func (s *refSnap) Kind() string                   { return s.kind }
func (s *refSnap) StartByte() int                 { return s.start }
func (s *refSnap) EndByte() int                   { return s.end }
func (s *refSnap) IsNamed() bool                  { return s.named }
func (s *refSnap) IsError() bool                  { return s.err }
func (s *refSnap) IsMissing() bool                { return s.missing }
func (s *refSnap) IsExtra() bool                  { return s.extra }
func (s *refSnap) ChildCount() int                { return len(s.children) }
func (s *refSnap) Child(i int) lower.Node         { return s.children[i] }
func (s *refSnap) FieldNameForChild(i int) string { return s.fields[i] }

// refExpectedAt lists the visible symbols the parser accepts in the state
// of the first leaf of an ERROR node.
func refExpectedAt(n *sitter.Node) []string {
	leaf := n
	for leaf.ChildCount() > 0 {
		leaf = leaf.Child(0)
	}
	it := language.LookaheadIterator(leaf.ParseState())
	if it == nil {
		return nil
	}
	defer it.Close()
	var out []string
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
	return out
}

var refKinds sync.Map // uint16 -> refKindInfo

type refKindInfo struct {
	name  string
	named bool
}

// errorSymbol is tree-sitter's id of ERROR nodes (ts_builtin_sym_error).
const errorSymbol = 0xFFFF

func refKindOf(n *sitter.Node) (uint16, refKindInfo) {
	id := n.KindId()
	if v, ok := refKinds.Load(id); ok {
		return id, v.(refKindInfo)
	}
	k := refKindInfo{name: n.Kind(), named: n.IsNamed()}
	if id == errorSymbol {
		k = refKindInfo{name: "ERROR", named: true}
	}
	refKinds.Store(id, k)
	return id, k
}

var refFieldNames = func() []string {
	names := make([]string, language.FieldCount()+1)
	for id := range names {
		if id > 0 {
			names[id] = language.FieldNameForId(uint16(id))
		}
	}
	return names
}()

func refFieldName(id uint16) string {
	if int(id) < len(refFieldNames) {
		return refFieldNames[id]
	}
	return ""
}

// refSnapshot is the previous Snapshot.
func refSnapshot(tree *sitter.Tree) *refSnap {
	c := tree.Walk()
	defer c.Close()
	var build func() *refSnap
	build = func() *refSnap {
		n := c.Node()
		id, k := refKindOf(n)
		s := &refSnap{
			kind: k.name, start: int(n.StartByte()), end: int(n.EndByte()),
			named: k.named, err: id == errorSymbol, extra: n.IsExtra(),
		}
		// Only a zero-width node can be MISSING.
		if s.start == s.end {
			s.missing = n.IsMissing()
		}
		if s.err {
			s.expected = refExpectedAt(n)
		}
		if c.GotoFirstChild() {
			for {
				s.fields = append(s.fields, refFieldName(c.FieldId()))
				s.children = append(s.children, build())
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
