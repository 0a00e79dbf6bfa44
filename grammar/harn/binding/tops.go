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
	all, ok := tsflat.Tops(root, tops, hollow, src, nil)
	if !ok {
		return nil, false
	}
	if _, over := o.Crossing(path, all, chainKinds()); over {
		return nil, false
	}
	var file *ast.File
	grammar.WithSnapshot(all, func(root lower.Node) { file = lower.File(src, root) })
	return file, true
}
