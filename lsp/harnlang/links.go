package harnlang

import (
	"context"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// DocumentLinks implements features.Linker: the path string of each
// top-level import of a relative module opens the module's file, found
// by the rule the checker uses (modulePath); a module that cannot be read
// and std modules get no link.
func (f *Features) DocumentLinks(ctx context.Context, s features.Snapshot) ([]features.Link, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil || s.Doc.Path == "" {
		return nil, nil
	}
	var out []features.Link
	root := tree.RootNode()
	for i := uint(0); i < root.NamedChildCount(); i++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := root.NamedChild(i)
		if n == nil || n.Kind() != "import_declaration" {
			continue
		}
		src := n.ChildByFieldName("source")
		if src == nil {
			continue
		}
		module := unquote(src.Utf8Text(s.Doc.Text))
		if !relative(module) {
			continue
		}
		path := modulePath(s.Doc.Path, module)
		if path == "" {
			continue
		}
		if _, err := s.Workspace.ReadFile(path); err != nil {
			continue
		}
		out = append(out, features.Link{Span: diagnostics.Span{Start: int(src.StartByte()), End: int(src.EndByte())},
			Target: path, Tooltip: "open " + module})
	}
	return out, nil
}

var _ features.Linker = (*Features)(nil)
