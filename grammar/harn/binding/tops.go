package binding

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/lower"
	"github.com/harnlang/harn-check/grammar/tsflat"
)

// LoweredTops lowers part of an editor's tree of src: the top-level items
// tops (children of root, in source order) under a file node like root,
// every other top-level item left out, and in each block whose span
// hollow lists (a function body, braces included) only the braces kept.
// What it gives is what Lowered gives for the text with everything left
// out blanked to spaces (newlines kept), which parses to the same items
// at the same offsets: the editor's focused check lowers the declarations
// an edit can reach without parsing or copying the rest of the file. It
// returns false when root has a syntax error or the kept items nest past
// o's limit (the caller checks the whole text instead).
//
// It gives no syntax diagnostics: with no error in the tree they are the
// lexical scan's, which reads the whole text; the caller scans the items
// it needs them for (syntaxdiag.Clean).
func LoweredTops(path string, src []byte, root *sitter.Node, tops []*sitter.Node, hollow [][2]int, o Options) (*ast.File, bool) {
	if root == nil || root.HasError() {
		return nil, false
	}
	all := []tsflat.Record{{StartByte: uint32(root.StartByte()), EndByte: uint32(root.EndByte()), Parent: tsflat.NoParent,
		ChildCount: uint32(len(tops)), Symbol: root.KindId(), Flags: tsflat.Named}}
	var buf []tsflat.Record
	for _, t := range tops {
		buf = tsflat.Walk(t, buf)
		if len(buf) == 0 {
			return nil, false
		}
		recs := buf
		for _, h := range hollow {
			if uint32(h[0]) >= recs[0].StartByte && uint32(h[1]) <= recs[0].EndByte {
				recs = tsflat.Hollow(recs, uint32(h[0]), uint32(h[1]), src)
			}
		}
		base := uint32(len(all))
		for j, r := range recs {
			if j == 0 {
				r.Parent, r.Field = 0, 0
			} else {
				r.Parent += base
			}
			all = append(all, r)
		}
	}
	if _, over := o.Crossing(path, all, chainKinds()); over {
		return nil, false
	}
	var file *ast.File
	grammar.WithSnapshot(all, func(root lower.Node) { file = lower.File(src, root) })
	return file, true
}
