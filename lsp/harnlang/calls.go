package harnlang

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/callhier"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// callables returns the file's top-level functions and pipelines.
func callables(tree *sitter.Tree, src []byte) []callhier.Callable {
	var out []callhier.Callable
	root := tree.RootNode()
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		if n != nil && n.Kind() == "attributed_declaration" {
			n = n.ChildByFieldName("declaration")
		}
		if n == nil {
			continue
		}
		kind := features.SymbolFunction
		switch n.Kind() {
		case "function_declaration":
		case "pipeline_declaration":
			kind = features.SymbolEvent
		default:
			continue
		}
		name := n.ChildByFieldName("name")
		if name == nil {
			continue
		}
		out = append(out, callhier.Callable{Callable: features.Callable{Name: name.Utf8Text(src), Kind: kind,
			Span:          diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())},
			SelectionSpan: diagnostics.Span{Start: int(name.StartByte()), End: int(name.EndByte())}}, Node: n})
	}
	return out
}

// declAt returns the span of the declaration the name at an offset
// denotes, as definition answers: the checker's model, or the syntax
// index where the features fall back to it.
// The syntax index is built only when needed.
func (f *Features) declAt(s features.Snapshot, tree *sitter.Tree) func(off int) (diagnostics.Span, bool) {
	var ix *names.Index
	return func(off int) (diagnostics.Span, bool) {
		if n, ok := checkedNameAt(s, tree, off); ok {
			return n.d.Span, n.def >= 0
		}
		if ix == nil {
			ix = f.names.Index(tree, s.Doc.Text)
		}
		if d := ix.ResolveAt(off); d != nil {
			return d.Span, true
		}
		return diagnostics.Span{}, false
	}
}

// PrepareCallHierarchy implements features.CallHierarchy: the top-level
// function or pipeline the name at offset resolves to, in this file.
func (f *Features) PrepareCallHierarchy(_ context.Context, s features.Snapshot, offset int) ([]features.Callable, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	return callhier.Prepare(callables(tree, s.Doc.Text), f.declAt(s, tree), offset), nil
}

// OutgoingCalls implements features.CallHierarchy: the file's functions
// and pipelines c calls.
func (f *Features) OutgoingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	return callhier.Outgoing(callables(tree, s.Doc.Text), f.declAt(s, tree), c), nil
}

// IncomingCalls implements features.CallHierarchy: the file's functions
// and pipelines that call c.
func (f *Features) IncomingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	return callhier.Incoming(callables(tree, s.Doc.Text), f.declAt(s, tree), c), nil
}

var _ features.CallHierarchy = (*Features)(nil)
