package lsp_test

import (
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

func codeAction(c *lsptest.Client, uri string, rng map[string]any, only ...string) lsptest.Message {
	ctx := map[string]any{"diagnostics": []any{}}
	if len(only) > 0 {
		ctx["only"] = only
	}
	return c.Call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng, "context": ctx})
}

func TestCodeActions(t *testing.T) {
	tr := &transcript{t: t}
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open(fakeURI, "fake", 1, "a bad line\nwarn bad\n")
	tr.add("quick fixes at the first bad", codeAction(c, fakeURI, lsptest.Range(0, 3, 0, 3)))
	tr.add("quick fixes only, on warn", codeAction(c, fakeURI, lsptest.Range(1, 0, 1, 2), "quickfix"))
	tr.add("fix all only", codeAction(c, fakeURI, lsptest.Range(0, 0, 0, 0), "source.fixAll"))
	tr.add("source covers fix all", codeAction(c, fakeURI, lsptest.Range(0, 0, 0, 0), "source"))
	tr.add("nothing under the cursor, refactor only", codeAction(c, fakeURI, lsptest.Range(0, 0, 0, 1), "refactor"))
	tr.add("range past the end is an error", codeAction(c, fakeURI, lsptest.Range(0, 0, 9, 0)))
	tr.check("code_actions")

	// A client that supports documentChanges gets versioned edits.
	tr2 := &transcript{t: t}
	c2 := lsptest.Start(t, testOptions())
	c2.Initialize("file:///w", map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}})
	c2.Open(fakeURI, "fake", 5, "bad\n")
	tr2.add("versioned quick fix", codeAction(c2, fakeURI, lsptest.Range(0, 0, 0, 0), "quickfix"))
	tr2.check("code_actions_versioned")
}
