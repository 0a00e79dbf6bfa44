package cache

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Tree is a language's syntax tree of one document version, opaque to the
// cache. Close releases it (tree-sitter trees live in C memory); the cache
// calls it once the Document holding the tree is unreachable.
type Tree interface {
	Close()
}

// Syntax keeps a per-document syntax tree for a language, reparsing
// incrementally.
type Syntax interface {
	// Parse returns the tree of text. prev is the previous version's tree
	// (nil when the document was just opened) and edits turn the previous
	// version's text into text, in order. Parse must leave prev unchanged,
	// since readers of the previous version may still use it: a tree-sitter
	// front end copies prev, applies the edits to the copy, and reparses
	// with it. Parse must not fail; a syntax error is part of the tree.
	Parse(prev Tree, edits []Edit, text []byte) Tree
}

var cleanupFn = func(t Tree) { t.Close() }

// Tree returns the document's syntax tree, or nil when its language has no
// Syntax (or parsing panicked; the panic is in ParseError).
func (d *Document) Tree() Tree { return d.tree }

// ParseError reports a panic of the language's Parse on this version.
func (d *Document) ParseError() error { return d.parseErr }

// parse computes d's tree from prev's (nil on open). It runs while the
// store is handling the change, before the document is visible to anyone.
func (d *Document) parse(prev *Document) {
	syn := d.langs.Syntax[d.Ext]
	if syn == nil || d.refused != nil {
		return
	}
	var prevTree Tree
	edits := d.Edits
	if prev != nil && prev.Ext == d.Ext {
		prevTree = prev.tree
	}
	if prevTree == nil {
		edits = nil // a fresh parse
	}
	defer func() {
		if r := recover(); r != nil {
			d.tree = nil
			d.parseErr = fmt.Errorf("parser panicked on %s version %d: %v\n%s", d.URI, d.Version, r, debug.Stack())
		}
	}()
	t := syn.Parse(prevTree, edits, d.Text)
	if t == nil {
		return
	}
	d.tree = t
	runtime.AddCleanup(d, cleanupFn, t)
}
