package lsp_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

// harnPieces are what the random edits insert: Harn tokens and fragments
// that open and close blocks, strings, comments and evaluation sites, so
// the incremental parser keeps entering and leaving error recovery.
var harnPieces = []string{
	"fn f(x: int) -> int {", "}", "\n", "let a = 1", "if a > 2 {", "return a", "\"s\"", "// c",
	"o.kind", " ", "42", "(", ")", "é", "𝄞", "{", "match o.kind {", "\"answered\" -> ",
	"harness.llm.evaluate(\"id\", w, {safe: boolean(\"q\")})", "import {boolean} from \"std/predicate\"\n",
	"/* ", "*/", "\"${", "\"\"\"", ",", "const q = {x: 1}", "pipeline p(t) {", "struct S { a: int }",
}

// syntaxTree asks the server for its tree of uri.
func syntaxTree(t *testing.T, c *lsptest.Client, uri string) lsp.SyntaxTree {
	t.Helper()
	m := c.Call(lsp.MethodSyntaxTree, map[string]any{"textDocument": doc(uri)})
	var st lsp.SyntaxTree
	if m.Error != nil || json.Unmarshal(m.Result, &st) != nil || st.Sexp == "" {
		t.Fatalf("%s of %s: %s %v", lsp.MethodSyntaxTree, uri, m.Result, m.Error)
	}
	return st
}

// leiaPieces are the Leia counterpart of harnPieces.
var leiaPieces = []string{
	"func f(x) {", "}", "\n", "x := 1", "if a < b {", "return a", "\"s\"", "// c", "t.name",
	" ", "42", "(", ")", "é", "𝄞", "{", "for i := 1; i <= #xs; i++ {", "\"${", "`", "```",
	"select {", "case m := <-ch:", "import \"json\"\n", "obj:save(1)", "..", ",", "[", "]",
}

// TestRandomEditsMatchFreshOpenRealLanguages: thousands of random
// didChange edits of a real Harn and a real Leia document; along the way
// and at the end, the server's incrementally reparsed tree (as an
// S-expression) and its published diagnostics equal those of a fresh open
// of the same text.
func TestRandomEditsMatchFreshOpenRealLanguages(t *testing.T) {
	for _, tc := range []struct {
		lang, seed string
		pieces     []string
	}{
		{"harn", "testdata/harn/decide.harn", harnPieces},
		{"leia", "testdata/leia/sum.leia", leiaPieces},
	} {
		t.Run(tc.lang, func(t *testing.T) { randomEditsMatchFreshOpen(t, tc.lang, tc.seed, tc.pieces) })
	}
}

func randomEditsMatchFreshOpen(t *testing.T, lang, seedPath string, pieces []string) {
	seedText, err := os.ReadFile(seedPath)
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	uri := "file:///w/edited." + lang
	text := utf16Text(utf16.Encode([]rune(string(seedText))))
	c.Open(uri, lang, 0, string(seedText))
	r := rand.New(rand.NewPCG(9, 36))
	compared := 0
	compare := func(version int32) {
		t.Helper()
		want := string(utf16.Decode(text))
		got := c.WaitDiagnostics(uri, version)
		tree := syntaxTree(t, c, uri)
		if tree.Version != version {
			t.Fatalf("tree of version %d, want %d", tree.Version, version)
		}
		fresh := "file:///w/fresh." + lang
		c.Open(fresh, lang, 1, want)
		freshDiags := c.WaitDiagnostics(fresh, 1)
		if ft := syntaxTree(t, c, fresh); ft.Sexp != tree.Sexp {
			t.Fatalf("version %d: incremental tree differs from a fresh parse of %q:\n%s\nwant\n%s", version, want, tree.Sexp, ft.Sexp)
		}
		g, _ := json.Marshal(got.Diagnostics)
		w, _ := json.Marshal(freshDiags.Diagnostics)
		if gs, ws := string(g), strings.ReplaceAll(string(w), "fresh."+lang, "edited."+lang); gs != ws {
			t.Fatalf("version %d: diagnostics of %q:\n%s\nwant (fresh open)\n%s", version, want, gs, ws)
		}
		c.Notify("textDocument/didClose", map[string]any{"textDocument": doc(fresh)})
		c.WaitDiagnostics(fresh, -1)
		c.Messages() // drop the diagnostics of the versions in between
		compared++
	}
	version := int32(0)
	const edits = 2000
	for range edits {
		a := text.boundary(r.IntN(len(text) + 1))
		b := text.boundary(min(len(text), a+r.IntN(12)))
		var ins strings.Builder
		for range r.IntN(3) {
			ins.WriteString(pieces[r.IntN(len(pieces))])
		}
		sl, sc := text.pos(a)
		el, ec := text.pos(b)
		version++
		c.Change(uri, version, lsptest.Edit{StartLine: sl, StartChar: sc, EndLine: el, EndChar: ec, Text: ins.String()})
		text = append(text[:a:a], append(utf16Text(utf16.Encode([]rune(ins.String()))), text[b:]...)...)
		if len(text) > 4000 {
			version++
			c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
				"contentChanges": []any{map[string]any{"text": string(seedText)}}})
			text = utf16Text(utf16.Encode([]rune(string(seedText))))
		}
		if version%150 == 0 {
			compare(version)
		}
	}
	compare(version)
	if compared < edits/150 {
		t.Errorf("compared only %d times", compared)
	}
}
