package harnlang

import (
	"context"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// CodeLenses implements features.Lenser: above each test pipeline (named
// test_* or attributed @test, upstream's two conventions) a lens running
// the file's tests through harn-check (`harn-check test PATH`, which
// replays a .llm-mock.jsonl beside the program), as the command
// features.CommandRun with the argv to execute.
func (f *Features) CodeLenses(ctx context.Context, s features.Snapshot) ([]features.Lens, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil || s.Doc.Path == "" {
		return nil, nil
	}
	var out []features.Lens
	root := tree.RootNode()
	for i := uint(0); i < root.NamedChildCount(); i++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := root.NamedChild(i)
		decl, test := n, false
		if n != nil && n.Kind() == "attributed_declaration" {
			decl = n.ChildByFieldName("declaration")
			test = hasTestAttribute(n, s.Doc.Text)
		}
		if decl == nil || decl.Kind() != "pipeline_declaration" {
			continue
		}
		name := decl.ChildByFieldName("name")
		if name == nil {
			continue
		}
		pname := name.Utf8Text(s.Doc.Text)
		if !test && !strings.HasPrefix(pname, "test_") {
			continue
		}
		out = append(out, features.Lens{
			Span:      diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())},
			Title:     "▶ run tests",
			Command:   features.CommandRun,
			Arguments: []any{map[string]any{"argv": []string{"harn-check", "test", s.Doc.Path}, "test": pname}},
		})
	}
	return out, nil
}

// hasTestAttribute reports whether an attributed declaration carries @test.
func hasTestAttribute(n *sitter.Node, src []byte) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		a := n.NamedChild(i)
		if a == nil || a.Kind() != "attribute" {
			continue
		}
		if id := a.ChildByFieldName("name"); id != nil && id.Utf8Text(src) == "test" {
			return true
		}
	}
	return false
}

var _ features.Lenser = (*Features)(nil)
