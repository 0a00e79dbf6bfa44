// Package cst is the concrete syntax tree the formatters read: every
// visible node of a tree-sitter tree (named nodes, anonymous tokens such as
// `(` and keywords, and extras such as comments), copied into Go memory in
// one cgo call through grammar/tsflat, with the source around it.
//
// The package knows no grammar; the formatters know their node kinds. It
// also provides the comparison the formatters' safety tests and the
// runtime verification use: two trees are the same program when they have
// the same nodes, kinds and token texts in the same order, ignoring
// comments, positions and the separators a formatter may add or drop.
package cst

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

// Node is one node of the tree.
type Node struct {
	// Kind is the node's type: a named kind ("call_expression") or the text
	// of an anonymous token ("(").
	Kind string
	// Field is the node's field name in its parent, "" for none.
	Field string
	// Start and End are the node's byte span in the source.
	Start, End int
	// Named, Extra, Missing and Error are tree-sitter's flags; HasError
	// reports an ERROR or MISSING node at or below this one.
	Named, Extra, Missing, Error, HasError bool
	// Kids are the node's children in source order.
	Kids []*Node
}

// parsers keeps a pool of parsers per language: creating one costs about
// as much as a tenth of parsing a large file.
var parsers sync.Map // *sitter.Language -> *sync.Pool

// Parse parses src with lang through grammar/tsutil (bounded work) with a
// pooled parser and copies the tree. It returns nil when the parser gave
// up (tsutil's budget).
func Parse(lang *sitter.Language, src []byte) *Node {
	root, _ := parse(lang, src, nil)
	return root
}

// ParseScratch is Parse into recycled memory: the tree is valid until
// release is called, after which it must not be used. A formatter that
// keeps nothing of the tree once it has printed uses it so that formatting
// file after file does not allocate a tree each time.
func ParseScratch(lang *sitter.Language, src []byte) (root *Node, release func()) {
	a := arrayPool.Get().(*arrays)
	root, a = parse(lang, src, a)
	return root, func() {
		clear(a.nodes[:cap(a.nodes)])
		clear(a.kids[:cap(a.kids)])
		arrayPool.Put(a)
	}
}

// arrays are the backing arrays of a tree built by ParseScratch.
type arrays struct {
	nodes []Node
	kids  []*Node
}

var arrayPool = sync.Pool{New: func() any { return new(arrays) }}

func parse(lang *sitter.Language, src []byte, a *arrays) (*Node, *arrays) {
	v, ok := parsers.Load(lang)
	if !ok {
		v, _ = parsers.LoadOrStore(lang, &sync.Pool{New: func() any {
			p := sitter.NewParser()
			if err := p.SetLanguage(lang); err != nil {
				// The ABI is fixed when the parser is generated: a build
				// problem, not an input one.
				panic("cst: " + err.Error())
			}
			return p
		}})
	}
	pool := v.(*sync.Pool)
	p := pool.Get().(*sitter.Parser)
	defer pool.Put(p)
	tree := tsutil.Parse(p, src, nil)
	if tree == nil {
		p.Reset()
		return nil, a
	}
	defer tree.Close()
	return build(tree, lang, a)
}

// walkBufs recycles the record arrays between builds, so that a walk
// usually fits the buffer it is given (one cgo call, not two).
var walkBufs = sync.Pool{New: func() any { return new([]tsflat.Record) }}

// Build copies tree into Go memory. It returns nil for a nil tree.
func Build(tree *sitter.Tree, lang *sitter.Language) *Node {
	root, _ := build(tree, lang, nil)
	return root
}

// build is Build into a's arrays when a is not nil (growing them as
// needed), into new ones otherwise.
func build(tree *sitter.Tree, lang *sitter.Language, a *arrays) (*Node, *arrays) {
	if tree == nil {
		return nil, a
	}
	names := tsflat.NamesOf(lang)
	bp := walkBufs.Get().(*[]tsflat.Record)
	recs := tsflat.Walk(tree.RootNode(), *bp)
	defer func() {
		*bp = recs[:0]
		walkBufs.Put(bp)
	}()
	if len(recs) == 0 {
		return nil, a
	}
	var nodes []Node
	var kids []*Node
	if a != nil && cap(a.nodes) >= len(recs) {
		nodes, kids = a.nodes[:len(recs)], a.kids[:len(recs)-1]
	} else {
		nodes, kids = make([]Node, len(recs)), make([]*Node, len(recs)-1)
		if a != nil {
			a.nodes, a.kids = nodes, kids
		}
	}
	off := 0
	for i := range recs {
		r := &recs[i]
		n := &nodes[i]
		n.Kind = names.Symbol(r.Symbol)
		n.Start, n.End = int(r.StartByte), int(r.EndByte)
		n.Named = r.Flags&tsflat.Named != 0
		n.Extra = r.Flags&tsflat.Extra != 0
		n.Missing = r.Flags&tsflat.Missing != 0
		n.Error = r.Flags&tsflat.Error != 0
		n.HasError = r.Flags&tsflat.HasError != 0
		if k := int(r.ChildCount); k > 0 {
			n.Kids = kids[off : off : off+k]
			off += k
		}
		if r.Parent != tsflat.NoParent {
			p := &nodes[r.Parent]
			n.Field = names.Field(r.Field)
			p.Kids = append(p.Kids, n)
		}
	}
	return &nodes[0], a
}

// Child returns the first child in field, or nil.
func (n *Node) Child(field string) *Node {
	for _, k := range n.Kids {
		if k.Field == field {
			return k
		}
	}
	return nil
}

// Children returns the children in field.
func (n *Node) Children(field string) []*Node {
	var out []*Node
	for _, k := range n.Kids {
		if k.Field == field {
			out = append(out, k)
		}
	}
	return out
}

// Text returns the node's source text.
func (n *Node) Text(src []byte) string { return string(src[n.Start:n.End]) }

// FirstError returns the offset of the first ERROR or MISSING node under
// root (root's start when there is none). It is iterative.
func FirstError(root *Node) int {
	n := root
	for {
		if n.Error || n.Missing {
			return n.Start
		}
		var next *Node
		for _, k := range n.Kids {
			if k.HasError || k.Error || k.Missing {
				next = k
				break
			}
		}
		if next == nil {
			return n.Start
		}
		n = next
	}
}
