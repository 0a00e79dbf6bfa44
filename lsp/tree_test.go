package lsp_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/lsptest"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// goStandIn is tree-sitter-go as a stand-in tree-sitter language
// (".gostandin") the way the Harn and Leia front ends are: a Syntax for
// incremental trees and tsquery Features for tokens and folds.
func goStandIn(t testing.TB) language.Language {
	lang := sitter.NewLanguage(tsgo.Language())
	q, err := tsquery.NewQueries(lang, `
(comment) @comment
(identifier) @variable
(field_identifier) @property
(interpreted_string_literal) @string
(int_literal) @number
["func" "if" "return" "package"] @keyword
`, `[(block) (comment) (composite_literal)] @fold`)
	if err != nil {
		t.Fatal(err)
	}
	return language.Language{Name: "Go stand-in", Extension: ".gostandin", Editor: func() (language.Editor, error) {
		return language.Editor{Syntax: tsquery.NewSyntax(lang), Features: tsquery.Features{Queries: q}}, nil
	}}
}

var goPieces = []string{"func f() {", "}", "\n", "if x {", "return 1", "\"s\"", "// c", "a.b", " ", "42", "(", ")", "é", "𝄞", "{", "x := T{1, 2}"}

// TestRandomEditsTreeMatchesFreshOpen: after thousands of random edits
// through didChange, the semantic tokens and folds the server derives from
// its incrementally reparsed tree equal those of a fresh open of the same
// text, checked along the way and at the end.
func TestRandomEditsTreeMatchesFreshOpen(t *testing.T) {
	opts := testOptions()
	opts.Languages = testLanguages(goStandIn(t))
	c := lsptest.Start(t, opts)
	c.Initialize("file:///w", nil)
	const uri = "file:///w/edited.gostandin"
	text := utf16Text(utf16.Encode([]rune("package main\n\nfunc main() {\n\tx := 42\n}\n")))
	c.Open(uri, "", 0, string(utf16.Decode(text)))
	r := rand.New(rand.NewPCG(7, 8))
	compare := func(version int32) {
		t.Helper()
		fresh := "file:///w/fresh" + strings.Repeat("x", int(version%3)) + ".gostandin"
		c.Open(fresh, "", 1, string(utf16.Decode(text)))
		for _, method := range []string{"textDocument/semanticTokens/full", "textDocument/foldingRange"} {
			g := c.Call(method, map[string]any{"textDocument": doc(uri)})
			w := c.Call(method, map[string]any{"textDocument": doc(fresh)})
			if gs, ws := withoutResultID(g.Result), withoutResultID(w.Result); gs != ws || g.Error != nil {
				t.Fatalf("version %d, %s of %q:\n%s\nwant\n%s", version, method, string(utf16.Decode(text)), gs, ws)
			}
		}
		c.Notify("textDocument/didClose", map[string]any{"textDocument": doc(fresh)})
	}
	version := int32(0)
	for range 2000 {
		a := text.boundary(r.IntN(len(text) + 1))
		b := text.boundary(min(len(text), a+r.IntN(8)))
		var ins strings.Builder
		for range r.IntN(3) {
			ins.WriteString(goPieces[r.IntN(len(goPieces))])
		}
		sl, sc := text.pos(a)
		el, ec := text.pos(b)
		version++
		c.Change(uri, version, lsptest.Edit{StartLine: sl, StartChar: sc, EndLine: el, EndChar: ec, Text: ins.String()})
		text = append(text[:a:a], append(utf16Text(utf16.Encode([]rune(ins.String()))), text[b:]...)...)
		if len(text) > 3000 {
			version++
			c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
				"contentChanges": []any{map[string]any{"text": "package main\n"}}})
			text = utf16Text(utf16.Encode([]rune("package main\n")))
		}
		if version%100 == 0 {
			compare(version)
		}
	}
	compare(version)
}
