package binding

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/internal/limits"
)

// LoweredTops lowers part of an editor's tree of src: the top-level
// statements tops (children of root, in source order) under a file node
// like root, every other top-level statement left out, and in each block
// whose span hollow lists (a function body, braces included) only the
// braces kept. What it gives is what Lowered gives for the text with
// everything left out blanked to spaces (newlines kept), which parses to
// the same statements at the same offsets: the editor's incremental
// check lowers the statements an edit can reach without parsing or
// copying the rest of the file. It returns false when root has a syntax
// error, or a statement marked in check nests past the default limit
// (the caller checks the whole text instead).
func LoweredTops(path string, src []byte, root *sitter.Node, tops []*sitter.Node, check []bool, hollow [][2]int) (*ast.File, []diagnostics.Diagnostic, bool) {
	if root == nil || root.HasError() {
		return nil, nil, false
	}
	maxNesting := limits.Default.Nesting
	all, ok := tsflat.Tops(root, tops, hollow, src, func(i int, recs []tsflat.Record) bool {
		// The statement's depth counts from the file node above it.
		_, _, _, over := tsflat.Crossing(recs, nil, maxNesting-1, limits.ChainLength(maxNesting))
		return !check[i] || !over
	})
	if !ok {
		return nil, nil, false
	}
	f := ast.Lower(grammar.Build(all), src)
	diags := TokenDiagnostics(path, f)
	diags = append(diags, TargetDiagnostics(path, f)...)
	diagnostics.Sort(diags)
	return f, limits.CapSyntaxErrors(path, diags, 0), true
}
