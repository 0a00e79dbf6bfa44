package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// TestDiagnostics: published on open with related information and code
// descriptions, updated on change, cleared when fixed and on close.
func TestDiagnostics(t *testing.T) {
	tr := &transcript{t: t}
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open(fakeURI, "fake", 1, "a bad line\nwarn 𝄞 bad\n")
	tr.add("open: two bad, one warn", c.WaitDiagnostics(fakeURI, 1))
	c.Change(fakeURI, 2, lsptest.Edit{StartLine: 0, StartChar: 2, EndLine: 0, EndChar: 5, Text: "good"})
	tr.add("first bad fixed", c.WaitDiagnostics(fakeURI, 2))
	c.Change(fakeURI, 3, lsptest.Edit{StartLine: 1, StartChar: 8, EndLine: 1, EndChar: 11, Text: "fine"},
		lsptest.Edit{StartLine: 1, StartChar: 0, EndLine: 1, EndChar: 4, Text: "ok"})
	tr.add("all fixed: cleared", c.WaitDiagnostics(fakeURI, 3))
	c.Change(fakeURI, 4, lsptest.Edit{StartLine: 2, StartChar: 0, EndLine: 2, EndChar: 0, Text: "bad"})
	tr.add("broken again", c.WaitDiagnostics(fakeURI, 4))
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fakeURI}})
	tr.add("closed: cleared without version", c.WaitDiagnostics(fakeURI, -1))

	// The registered front ends report exactly what the CLI reports: a
	// clean Harn file has no diagnostics; a Leia file, while no Leia
	// checker exists, the one LEIA0002 info.
	c.Open("file:///w/m.harn", "harn", 7, "let x = 1\nlog(x)\n")
	tr.add("clean harn", c.WaitDiagnostics("file:///w/m.harn", 7))
	c.Open("file:///w/n.leia", "leia", 1, "x := 1\n")
	tr.add("leia syntax checked only", c.WaitDiagnostics("file:///w/n.leia", 1))
	tr.check("diagnostics")
}

// TestDiagnosticsLanguageID: the languageId picks the language when the
// extension does not; an unknown document is not analysed.
func TestDiagnosticsLanguageID(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open("file:///w/notes.txt", "plaintext", 1, "bad\n")
	c.Open("untitled:Untitled-1", "fake", 1, "bad\n")
	d := c.WaitDiagnostics("untitled:Untitled-1", 1)
	if len(d.Diagnostics) != 1 {
		t.Errorf("untitled fake buffer: %d diagnostics, want 1", len(d.Diagnostics))
	}
	// Round trip a request so any diagnostics for notes.txt would be in.
	c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///w/notes.txt"}, "position": lsptest.Pos(0, 0)})
	for _, m := range c.Messages() {
		var p struct{ URI string }
		_ = json.Unmarshal(m.Params, &p)
		if p.URI == "file:///w/notes.txt" {
			t.Errorf("a document of no known language got %s", m.Method)
		}
	}
}
