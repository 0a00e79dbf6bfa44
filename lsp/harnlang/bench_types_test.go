package harnlang

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// BenchmarkTyped5000 measures the features that read the checker's facts
// on a 5,000-line Harn file: a hover with the inferred type on a new
// version (one check of the file) and on the same version (the cached
// facts), and a member completion on a new version (a check of the text
// with a placeholder member) and repeated, against the semantic tokens of the same tree as a reference
// measured in the same run.
func BenchmarkTyped5000(b *testing.B) {
	var src strings.Builder
	for i := range 5000 / 9 {
		fmt.Fprintf(&src, "/// Step %d.\nfn step_%d(x: int, name: string) -> int {\n  let y = x + %d\n  if y > 10 {\n    log(\"big ${name.trim()}\")\n  }\n  return y\n}\n\n", i, i, i)
	}
	text := []byte(src.String())
	f, err := New()
	if err != nil {
		b.Fatal(err)
	}
	tree := f.syntax.Parse(nil, nil, text).(*tsquery.Tree)
	defer tree.Close()
	snap := features.Snapshot{Doc: features.Document{Path: "/p/big.harn", URI: "file:///p/big.harn", Text: text, Tree: tree}, Workspace: fakeWorkspace{}}
	mid := strings.Index(string(text), "if y > 10 {\n    log(\"big ${name.trim()}\")\n  }\n  return y\n}\n\n/// Step 300.")
	member := mid + strings.Index(string(text[mid:]), "trim")
	ctx := context.Background()
	if h, _ := f.Hover(ctx, snap, mid+3); h == nil || !strings.Contains(h.Markdown, "type `int`") {
		b.Fatalf("hover on y has no type: %+v", h)
	}
	if items, _ := f.Completion(ctx, snap, member); len(items) == 0 || items[0].Detail != "string property" {
		b.Fatalf("no string members after name.: %+v", items)
	}
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"hover(new version)", func() { forgetFacts(); f.Hover(ctx, snap, mid+3) }},
		{"hover", func() { f.Hover(ctx, snap, mid+3) }},
		{"memberCompletion(new version)", func() { forgetFacts(); f.Completion(ctx, snap, member) }},
		{"memberCompletion", func() { f.Completion(ctx, snap, member) }},
		{"semanticTokens(reference)", func() { f.SemanticTokens(ctx, snap) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				bc.run()
			}
		})
	}
}
