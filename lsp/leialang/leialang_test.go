package leialang

import (
	"context"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// TestTokensAndFolds: the compiled Leia queries colour keywords, strings
// and comments, and fold a multi-line function body.
func TestTokensAndFolds(t *testing.T) {
	f, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("// c\nfunc f(x) {\n    return \"s\"\n}\n")
	tree := syn.Parse(nil, nil, src).(*tsquery.Tree)
	defer tree.Close()
	snap := features.Snapshot{Doc: features.Document{Text: src, Tree: tree}}
	toks, err := f.SemanticTokens(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tk := range toks {
		got[string(src[tk.Span.Start:tk.Span.End])] = tk.Type
	}
	for text, typ := range map[string]string{"// c": "comment", "func": "keyword", "return": "keyword", "\"s\"": "string"} {
		if got[text] != typ {
			t.Errorf("token %q: type %q, want %q (all: %v)", text, got[text], typ, got)
		}
	}
	folds, err := f.FoldingRanges(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, fd := range folds {
		if string(src[fd.Span.Start:fd.Span.Start+1]) == "{" && src[fd.Span.End-1] == '}' {
			found = true
		}
	}
	if !found {
		t.Errorf("no fold of the function body: %+v", folds)
	}
}
