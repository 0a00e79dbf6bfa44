package lsp_test

import (
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

const featureText = "def main {\n  x = 42 𝄞 x\n}\ndef other\n"

func doc(uri string) map[string]any { return map[string]any{"uri": uri} }

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": doc(uri), "position": lsptest.Pos(line, char)}
}

// TestFeatures drives every feature request through the protocol for the
// Fake language, which implements them all (real Harn documents are in
// testdata/scripts/harn_*.txtar).
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		name, uri, lang string
		caps            map[string]any
	}{
		{"features_fake", fakeURI, "fake", map[string]any{"textDocument": map[string]any{
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}},
		{"features_fake_flat_symbols", fakeURI, "fake", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &transcript{t: t}
			c := lsptest.Start(t, testOptions())
			c.Initialize("file:///w", tc.caps)
			c.Open(tc.uri, tc.lang, 1, featureText)
			// x after the astral character: UTF-16 column 12.
			tr.add("hover", c.Call("textDocument/hover", at(tc.uri, 1, 12)))
			tr.add("hover on nothing", c.Call("textDocument/hover", at(tc.uri, 1, 9)))
			tr.add("definition", c.Call("textDocument/definition", at(tc.uri, 1, 12)))
			refs := at(tc.uri, 1, 2)
			refs["context"] = map[string]any{"includeDeclaration": true}
			tr.add("references", c.Call("textDocument/references", refs))
			tr.add("document symbols", c.Call("textDocument/documentSymbol", map[string]any{"textDocument": doc(tc.uri)}))
			tr.add("workspace symbols", c.Call("workspace/symbol", map[string]any{"query": "main"}))
			tr.add("semantic tokens", c.Call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc(tc.uri)}))
			tr.add("folding ranges", c.Call("textDocument/foldingRange", map[string]any{"textDocument": doc(tc.uri)}))
			tr.add("completion", c.Call("textDocument/completion", at(tc.uri, 3, 4)))
			tr.add("signature help", c.Call("textDocument/signatureHelp", at(tc.uri, 1, 4)))
			tr.add("prepare rename", c.Call("textDocument/prepareRename", at(tc.uri, 1, 2)))
			rename := at(tc.uri, 1, 2)
			rename["newName"] = "y"
			tr.add("rename", c.Call("textDocument/rename", rename))
			rename["newName"] = "not a word"
			tr.add("rename to an invalid name", c.Call("textDocument/rename", rename))
			tr.check(tc.name)
		})
	}
}

// TestCompletionReplyReused: a second completion at the same place of the
// same version is the first reply, not computed again; another place, or
// the same place after a change, is computed.
func TestCompletionReplyReused(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open(fakeURI, "fake", 1, featureText)
	computed := func() int64 { return lsptest.FakeCompletions.Load() }
	for _, step := range []struct {
		name    string
		change  bool
		line    int
		compute bool
	}{
		{"first", false, 3, true},
		{"again", false, 3, false},
		{"elsewhere", false, 1, true},
		{"back at the first place", false, 3, true},
		{"same place, new version", true, 3, true},
		{"again on the new version", false, 3, false},
	} {
		if step.change {
			c.Change(fakeURI, 2, lsptest.Edit{StartLine: 0, StartChar: 0, EndLine: 0, EndChar: 0, Text: "// more words\n"})
		}
		before := computed()
		reply := c.Call("textDocument/completion", at(fakeURI, step.line, 4))
		if reply.Error != nil || len(reply.Result) == 0 {
			t.Fatalf("%s: %+v", step.name, reply)
		}
		if got := computed() > before; got != step.compute {
			t.Errorf("%s: computed %v, want %v", step.name, got, step.compute)
		}
	}
}
