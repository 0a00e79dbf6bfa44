// Package tsbind is the one tree-sitter binding both grammars use: given a
// language compiled from a generated parser.c (grammar/harn/binding and
// grammar/leia/binding do the cgo part and little else), it parses through
// grammar/tsutil's pooled, budgeted parsers, adapts go-tree-sitter nodes
// to tsnode.Node (Wrap), copies a tree into Go memory for the lowerings
// (Snapshot, Records, Build) and prints S-expressions (Sexp).
//
// Invariants: no language's rules live here (lowering and syntax
// diagnostics stay with each grammar); offsets are int byte offsets into
// the parsed source, whichever grammar and whichever node (live or
// copied); every answer depends on the language's tables only, so a
// Grammar is safe for concurrent use.
package tsbind

import (
	"slices"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsnode"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

// Grammar is one compiled tree-sitter language and what parsing it needs.
type Grammar struct {
	lang    *sitter.Language
	parsers *tsutil.Parsers
	// names are read at their first use (Names), not when the binding
	// is made at package initialisation, which every process pays.
	namesOnce sync.Once
	names     *tsflat.Names
	prepare   func(src []byte) []byte
	// expected caches Expected by parse state.
	expected sync.Map // uint16 -> []string
}

// New returns the binding of lang. prepare, when not nil, maps the source
// to the parser's input before every parse, fresh or incremental; it must
// keep every byte offset (Harn blanks bytes that are not ASCII).
func New(lang *sitter.Language, prepare func(src []byte) []byte) *Grammar {
	return &Grammar{lang: lang, parsers: tsutil.NewParsers(lang), prepare: prepare}
}

// Language returns the tree-sitter language.
func (g *Grammar) Language() *sitter.Language { return g.lang }

// Names returns the language's symbol and field names.
func (g *Grammar) Names() *tsflat.Names {
	g.namesOnce.Do(func() { g.names = tsflat.NamesOf(g.lang) })
	return g.names
}

// ParseTree parses src, reusing oldTree (already edited) when it is not
// nil. It returns nil when the parse exceeds its budget (grammar/tsutil).
func (g *Grammar) ParseTree(src []byte, oldTree *sitter.Tree) *sitter.Tree {
	tree, _ := g.ParseGuarded(src, oldTree)
	return tree
}

// ParseGuarded is ParseTree that also returns where a parse that gave up
// had got to (tsutil.ParseGuarded), -1 when it finished.
func (g *Grammar) ParseGuarded(src []byte, oldTree *sitter.Tree) (*sitter.Tree, int) {
	p := g.parsers.Get()
	defer g.parsers.Put(p)
	if g.prepare != nil {
		src = g.prepare(src)
	}
	return tsutil.ParseGuarded(p, src, oldTree)
}

// Sexp renders tree, a tree of src, as an S-expression: what
// tree-sitter's ts_node_string prints, at any depth (tsflat.SexpOf).
func (g *Grammar) Sexp(tree *sitter.Tree, src []byte) string {
	return tsflat.SexpOf(tree.RootNode(), g.Names(), src)
}

// Symbols returns the ids of the named node kinds, for tsflat.Crossing's
// chains (a kind the grammar lacks is left out).
func (g *Grammar) Symbols(kinds ...string) map[uint16]bool {
	m := map[uint16]bool{}
	for _, kind := range kinds {
		if id := g.lang.IdForNodeKind(kind, true); id != 0 {
			m[id] = true
		}
	}
	return m
}

// Expected lists the visible symbols the parser accepts in parse state
// state (for an ERROR node, the state of its first leaf): anonymous
// tokens in backquotes, named symbols by kind. The result is shared;
// callers must not modify it.
func (g *Grammar) Expected(state uint16) []string {
	if v, ok := g.expected.Load(state); ok {
		return v.([]string)
	}
	var out []string
	if it := g.lang.LookaheadIterator(state); it != nil {
		for _, id := range it.Iter() {
			if !g.lang.NodeKindIsVisible(id) {
				continue
			}
			name := g.lang.NodeKindForId(id)
			if g.lang.NodeKindIsNamed(id) {
				out = append(out, name)
			} else {
				out = append(out, "`"+name+"`")
			}
		}
		it.Close()
	}
	out = slices.Clip(out)
	g.expected.Store(state, out)
	return out
}

// Node adapts a go-tree-sitter node to tsnode.Node.
type Node struct{ n *sitter.Node }

// Wrap adapts n; a nil n gives a nil tsnode.Node.
func Wrap(n *sitter.Node) tsnode.Node {
	if n == nil {
		return nil
	}
	return Node{n}
}

// Kind implements tsnode.Node.
func (x Node) Kind() string { return x.n.Kind() }

// StartByte implements tsnode.Node.
func (x Node) StartByte() int { return int(x.n.StartByte()) }

// EndByte implements tsnode.Node.
func (x Node) EndByte() int { return int(x.n.EndByte()) }

// IsNamed implements tsnode.Node.
func (x Node) IsNamed() bool { return x.n.IsNamed() }

// IsError implements tsnode.Node.
func (x Node) IsError() bool { return x.n.IsError() }

// IsMissing implements tsnode.Node.
func (x Node) IsMissing() bool { return x.n.IsMissing() }

// IsExtra implements tsnode.Node.
func (x Node) IsExtra() bool { return x.n.IsExtra() }

// ChildCount implements tsnode.Node.
func (x Node) ChildCount() int { return int(x.n.ChildCount()) }

// Child implements tsnode.Node.
func (x Node) Child(i int) tsnode.Node { return Wrap(x.n.Child(uint(i))) }

// FieldNameForChild implements tsnode.Node.
func (x Node) FieldNameForChild(i int) string { return x.n.FieldNameForChild(uint32(i)) }
