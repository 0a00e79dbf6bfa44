package leialang

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/callhier"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// callables returns the file's top-level functions.
func callables(tree *sitter.Tree, src []byte) []callhier.Callable {
	var out []callhier.Callable
	root := tree.RootNode()
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		if n == nil {
			continue
		}
		var name *sitter.Node
		switch n.Kind() {
		case "function_declaration":
			name = n.ChildByFieldName("name")
		case "short_var_declaration":
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if left == nil || right == nil || left.NamedChildCount() != 1 || right.NamedChildCount() != 1 {
				continue
			}
			if l, r := left.NamedChild(0), right.NamedChild(0); l != nil && r != nil && l.Kind() == "identifier" && r.Kind() == "function_literal" {
				name = l
			}
		}
		if name == nil {
			continue
		}
		out = append(out, callhier.Callable{Callable: features.Callable{Name: name.Utf8Text(src), Kind: features.SymbolFunction,
			Span:          names.NodeSpan(n),
			SelectionSpan: names.NodeSpan(name)}, Node: n})
	}
	return out
}

// declAt returns the span of the declaration the name at an offset
// denotes, as definition answers: the checker's model, or the syntax
// index where the features fall back to it.
func (f *Features) declAt(s features.Snapshot) func(off int) (diagnostics.Span, bool) {
	var ix *names.Index
	return func(off int) (diagnostics.Span, bool) {
		if n, ok := checkedNameAt(s, off); ok {
			return n.d.Span, n.def >= 0
		}
		if ix == nil {
			if ix = f.index(s); ix == nil {
				return diagnostics.Span{}, false
			}
		}
		if d := ix.ResolveAt(off); d != nil {
			return d.Span, true
		}
		return diagnostics.Span{}, false
	}
}

// treeOf returns the document's tree, nil without one.
func treeOf(s features.Snapshot) *sitter.Tree {
	if t, ok := s.Doc.Tree.(*tsquery.Tree); ok && t != nil {
		return t.T
	}
	return nil
}

// PrepareCallHierarchy implements features.CallHierarchy: the top-level
// function the name at offset denotes, in this file.
func (f *Features) PrepareCallHierarchy(_ context.Context, s features.Snapshot, offset int) ([]features.Callable, error) {
	tree := treeOf(s)
	if tree == nil {
		return nil, nil
	}
	return callhier.Prepare(callables(tree, s.Doc.Text), f.declAt(s), offset), nil
}

// OutgoingCalls implements features.CallHierarchy: the file's functions
// c calls.
func (f *Features) OutgoingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree := treeOf(s)
	if tree == nil {
		return nil, nil
	}
	return callhier.Outgoing(callables(tree, s.Doc.Text), f.declAt(s), c), nil
}

// IncomingCalls implements features.CallHierarchy: the file's functions
// that call c.
func (f *Features) IncomingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree := treeOf(s)
	if tree == nil {
		return nil, nil
	}
	return callhier.Incoming(callables(tree, s.Doc.Text), f.declAt(s), c), nil
}

var _ features.CallHierarchy = (*Features)(nil)
