package harnlang

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// InlayHints implements features.InlayHinter: after the name of each
// binding written without a type (`let x = ...`, `var x = ...`) and of
// each closure parameter without one, the type the checker inferred for
// it (the facts of the check that published the document's diagnostics,
// as hover reads them), and after each evaluation call the outcome kinds
// it can return (outcomeHint); nothing where the checker has no type.
func (f *Features) InlayHints(ctx context.Context, s features.Snapshot, within diagnostics.Span) ([]features.InlayHint, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	var out []features.InlayHint
	hint := func(name *sitter.Node) {
		if name == nil || name.Kind() != "identifier" {
			return
		}
		if t, ok := nameType(s, tree, int(name.StartByte()), int(name.EndByte())); ok {
			out = append(out, features.InlayHint{Offset: int(name.EndByte()), Label: ": " + t.String(), Kind: "type"})
		}
	}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > 256 || ctx.Err() != nil ||
			int(n.EndByte()) < within.Start || int(n.StartByte()) > within.End {
			return
		}
		switch n.Kind() {
		case "variable_declaration":
			if n.ChildByFieldName("type") == nil {
				hint(n.ChildByFieldName("pattern"))
			}
		case "closure_parameter":
			if n.ChildByFieldName("type") == nil {
				hint(n.ChildByFieldName("name"))
			}
		case "call_expression":
			if h, ok := outcomeHint(s, tree, n); ok {
				out = append(out, h)
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(tree.RootNode(), 0)
	return out, nil
}

var _ features.InlayHinter = (*Features)(nil)
