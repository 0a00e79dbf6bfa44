package leialang

import (
	"context"
	"strings"
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

// TestNames: definition, hover and completion of Leia names through
// locals.scm; fields and methods are not variables.
func TestNames(t *testing.T) {
	f, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("// Doubles.\nfunc twice(n) {\n    return n * 2\n}\n\nfunc main() {\n    n := twice(3)\n    obj:n(1)\n    print(t.n, n)\n}\n")
	tree := syn.Parse(nil, nil, src).(*tsquery.Tree)
	defer tree.Close()
	snap := features.Snapshot{Doc: features.Document{Text: src, Tree: tree}}
	at := func(needle string, n int) int {
		off := -1
		for range n {
			off += 1 + strings.Index(string(src[off+1:]), needle)
		}
		return off
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		use, def int // offsets; def < 0: no definition
	}{
		{"parameter", at("n * 2", 1), at("n) {", 1)},
		{"function", at("twice(3)", 1), at("twice(n)", 1)},
		{"local var", at("n)\n}", 1), at("n := ", 1)},
		{"method name is no variable", at("n(1)", 1), -1},
		{"field name is no variable", at("n, n)", 1), -1},
	} {
		locs, err := f.Definition(ctx, snap, tc.use)
		if err != nil {
			t.Fatal(err)
		}
		if tc.def < 0 {
			if len(locs) != 0 {
				t.Errorf("%s: want no definition, got %+v", tc.name, locs)
			}
			continue
		}
		if len(locs) != 1 || locs[0].Span.Start != tc.def {
			t.Errorf("%s: definition %+v, want offset %d", tc.name, locs, tc.def)
		}
	}
	h, err := f.Hover(ctx, snap, at("twice(3)", 1))
	if err != nil || h == nil || !strings.Contains(h.Markdown, "func twice(n)") || !strings.Contains(h.Markdown, "Doubles.") {
		t.Errorf("hover %+v %v", h, err)
	}
	items, _ := f.Completion(ctx, snap, at("twice(3)", 1)+2)
	if len(items) == 0 || items[0].Label != "twice" {
		t.Errorf("completion of \"tw\": %+v", items)
	}
}
