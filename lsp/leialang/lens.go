package leialang

import (
	"context"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// CodeLenses implements features.Lenser: above each evaluate block, a
// lens running it (`harn-check evaluate --filter NAME PATH`) and, when
// the program has a companion NAME.records.json, one replaying it
// (`--replay`), as the command features.CommandRun with the argv.
func (f *Features) CodeLenses(ctx context.Context, s features.Snapshot) ([]features.Lens, error) {
	t, ok := s.Doc.Tree.(interface{ Sitter() *sitter.Tree })
	if !ok || s.Doc.Path == "" {
		return nil, nil
	}
	tree := t.Sitter()
	if tree == nil {
		return nil, nil
	}
	records := strings.TrimSuffix(s.Doc.Path, Extension) + ".records.json"
	_, err := s.Workspace.ReadFile(records)
	replay := err == nil
	var out []features.Lens
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > 64 || ctx.Err() != nil {
			return
		}
		if n.Kind() == "evaluate_statement" {
			name := ""
			if nn := n.ChildByFieldName("name"); nn != nil {
				if u, err := strconv.Unquote(nn.Utf8Text(s.Doc.Text)); err == nil {
					name = u
				} else {
					name = strings.Trim(nn.Utf8Text(s.Doc.Text), "\"'`")
				}
			}
			sp := diagnostics.Span{Start: int(n.StartByte()), End: int(n.EndByte())}
			argv := []string{"harn-check", "evaluate"}
			if name != "" {
				argv = append(argv, "--filter", name)
			}
			out = append(out, features.Lens{Span: sp, Title: "▶ run evaluation", Command: features.CommandRun,
				Arguments: []any{map[string]any{"argv": append(argv, s.Doc.Path), "evaluate": name}}})
			if replay {
				out = append(out, features.Lens{Span: sp, Title: "↺ replay", Command: features.CommandRun,
					Arguments: []any{map[string]any{"argv": append(append(argv[:len(argv):len(argv)], "--replay", records), s.Doc.Path), "evaluate": name}}})
			}
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(tree.RootNode(), 0)
	return out, nil
}

var _ features.Lenser = (*Features)(nil)
