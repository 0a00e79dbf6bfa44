package harnlang

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// BenchmarkFeatures5000 measures the syntax features on a 5,000-line Harn
// file: the first name request on a new version (building the name index
// from the tree) and later ones (sharing it), against the semantic tokens
// of the same tree as a reference measured in the same run.
func BenchmarkFeatures5000(b *testing.B) {
	var src strings.Builder
	for i := range 5000 / 9 {
		fmt.Fprintf(&src, "/// Step %d.\nfn step_%d(x: int, name: string) -> int {\n  let y = x + %d\n  if y > 10 {\n    log(\"big ${name}\")\n  }\n  return y\n}\n\n", i, i, i)
	}
	text := []byte(src.String())
	f, err := New()
	if err != nil {
		b.Fatal(err)
	}
	tree := f.syntax.Parse(nil, nil, text).(*tsquery.Tree)
	defer tree.Close()
	snap := features.Snapshot{Doc: features.Document{Path: "/p/big.harn", Text: text, Tree: tree}, Workspace: fakeWorkspace{}}
	mid := strings.Index(string(text), "if y > 10 {\n    log(\"big ${name}\")\n  }\n  return y\n}\n\n/// Step 300.")
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"definition(new version)", func() { f.names.Forget(); f.Definition(ctx, snap, mid+3) }},
		{"definition", func() { f.Definition(ctx, snap, mid+3) }},
		{"hover", func() { f.Hover(ctx, snap, mid+3) }},
		{"completion", func() { f.Completion(ctx, snap, mid+4) }},
		{"documentSymbols", func() { f.DocumentSymbols(ctx, snap) }},
		{"semanticTokens(reference)", func() { f.SemanticTokens(ctx, snap) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				bc.run()
			}
		})
	}
}
