package binding

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/lower"
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

// Expected implements syntaxdiag.Expecter for ERROR nodes.
func (s *snap) Expected() []string { return s.expected }

// expectedAt lists the visible symbols the parser accepts in the state of
// the first leaf of an ERROR node: anonymous tokens in backquotes, named
// symbols by kind.
func expectedAt(n *sitter.Node) []string {
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

// kindNames caches symbol names by id (and namedness, since an anonymous
// token and a named rule may share a name).
var kindNames sync.Map // uint16 -> string

func kindOf(n *sitter.Node) string {
	id := n.KindId()
	if n.IsError() {
		return "ERROR"
	}
	if v, ok := kindNames.Load(id); ok {
		return v.(string)
	}
	k := n.Kind()
	kindNames.Store(id, k)
	return k
}

// Snapshot copies a tree into Go memory with one cursor walk, for
// lowering and diagnostics.
func Snapshot(tree *sitter.Tree) lower.Node {
	c := tree.Walk()
	defer c.Close()
	var build func() *snap
	build = func() *snap {
		n := c.Node()
		s := &snap{
			kind: kindOf(n), start: int(n.StartByte()), end: int(n.EndByte()),
			named: n.IsNamed(), err: n.IsError(), missing: n.IsMissing(), extra: n.IsExtra(),
		}
		if s.err {
			s.expected = expectedAt(n)
		}
		if c.GotoFirstChild() {
			for {
				s.fields = append(s.fields, c.FieldName())
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
