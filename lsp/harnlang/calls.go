package harnlang

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// callable is a top-level function or pipeline of the file.
type callable struct {
	features.Callable
	node *sitter.Node
}

// callables returns the file's top-level functions and pipelines.
func callables(tree *sitter.Tree, src []byte) []callable {
	var out []callable
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
		out = append(out, callable{Callable: features.Callable{Name: name.Utf8Text(src), Kind: kind,
			Span:          diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())},
			SelectionSpan: diagnostics.Span{Start: int(name.StartByte()), End: int(name.EndByte())}}, node: n})
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

// calls returns the calls within n of names that resolve (declAt, the
// resolution definition and references use) to one of cs, grouped by
// callee in order of first call.
func calls(n *sitter.Node, resolve func(off int) (diagnostics.Span, bool), cs []callable) []features.Call {
	byName := map[diagnostics.Span]int{}
	for i, c := range cs {
		byName[c.SelectionSpan] = i
	}
	var out []features.Call
	at := map[int]int{}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > 256 {
			return
		}
		if n.Kind() == "call_expression" {
			if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "identifier" {
				if decl, ok := resolve(int(fn.StartByte())); ok {
					if i, ok := byName[decl]; ok {
						sp := diagnostics.Span{Start: int(fn.StartByte()), End: int(fn.EndByte())}
						if j, ok := at[i]; ok {
							out[j].Spans = append(out[j].Spans, sp)
						} else {
							at[i] = len(out)
							out = append(out, features.Call{Other: cs[i].Callable, Spans: []diagnostics.Span{sp}})
						}
					}
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(n, 0)
	return out
}

// PrepareCallHierarchy implements features.CallHierarchy: the top-level
// function or pipeline the name at offset resolves to, in this file.
func (f *Features) PrepareCallHierarchy(_ context.Context, s features.Snapshot, offset int) ([]features.Callable, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	decl, ok := f.declAt(s, tree)(offset)
	if !ok {
		return nil, nil
	}
	for _, c := range callables(tree, s.Doc.Text) {
		if c.SelectionSpan == decl {
			return []features.Callable{c.Callable}, nil
		}
	}
	return nil, nil
}

// OutgoingCalls implements features.CallHierarchy: the file's functions
// and pipelines c calls.
func (f *Features) OutgoingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	cs := callables(tree, s.Doc.Text)
	for _, k := range cs {
		if k.SelectionSpan == c.SelectionSpan {
			return calls(k.node, f.declAt(s, tree), cs), nil
		}
	}
	return nil, nil
}

// IncomingCalls implements features.CallHierarchy: the file's functions
// and pipelines that call c.
func (f *Features) IncomingCalls(_ context.Context, s features.Snapshot, c features.Callable) ([]features.Call, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	cs := callables(tree, s.Doc.Text)
	var target []callable
	for _, k := range cs {
		if k.SelectionSpan == c.SelectionSpan {
			target = []callable{k}
		}
	}
	if target == nil {
		return nil, nil
	}
	resolve := f.declAt(s, tree)
	var out []features.Call
	for _, k := range cs {
		if got := calls(k.node, resolve, target); len(got) > 0 {
			out = append(out, features.Call{Other: k.Callable, Spans: got[0].Spans})
		}
	}
	return out, nil
}

var _ features.CallHierarchy = (*Features)(nil)
