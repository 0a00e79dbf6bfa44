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

// kinds caches, by symbol id, a symbol's name and whether it is named (an
// alias has its own id, so both are properties of the id). Reading them
// from the cache saves cgo calls per node.
var kinds sync.Map // uint16 -> kindInfo

type kindInfo struct {
	name  string
	named bool
}

// errorSymbol is tree-sitter's id of ERROR nodes (ts_builtin_sym_error).
const errorSymbol = 0xFFFF

func kindOf(n *sitter.Node) (uint16, kindInfo) {
	id := n.KindId()
	if v, ok := kinds.Load(id); ok {
		return id, v.(kindInfo)
	}
	k := kindInfo{name: n.Kind(), named: n.IsNamed()}
	if id == errorSymbol {
		k = kindInfo{name: "ERROR", named: true}
	}
	kinds.Store(id, k)
	return id, k
}

// fieldNames are the grammar's field names by id (index 0, no field, is
// ""), read once so that the walk asks only for the id of each child's
// field.
var fieldNames = func() []string {
	names := make([]string, language.FieldCount()+1)
	for id := range names {
		if id > 0 {
			names[id] = language.FieldNameForId(uint16(id))
		}
	}
	return names
}()

func fieldName(id uint16) string {
	if int(id) < len(fieldNames) {
		return fieldNames[id]
	}
	return ""
}

// Snapshot copies a tree into Go memory with one cursor walk, for
// lowering and diagnostics.
func Snapshot(tree *sitter.Tree) lower.Node {
	c := tree.Walk()
	defer c.Close()
	var build func() *snap
	build = func() *snap {
		n := c.Node()
		id, k := kindOf(n)
		s := &snap{
			kind: k.name, start: int(n.StartByte()), end: int(n.EndByte()),
			named: k.named, err: id == errorSymbol, extra: n.IsExtra(),
		}
		// Only a zero-width node can be MISSING.
		if s.start == s.end {
			s.missing = n.IsMissing()
		}
		if s.err {
			s.expected = expectedAt(n)
		}
		if c.GotoFirstChild() {
			for {
				s.fields = append(s.fields, fieldName(c.FieldId()))
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
