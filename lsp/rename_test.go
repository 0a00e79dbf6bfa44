package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// TestWorkspaceRenameVersioned renames a Harn function declared in an open
// module through the server with a client that supports documentChanges:
// each open document's edits name the version they were computed for, and
// a file found on disk under the root (not open) is edited with a null
// version.
func TestWorkspaceRenameVersioned(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"lib.harn":     "pub fn clamp(x: int) -> int {\n  return x\n}\n",
		"main.harn":    "import {clamp} from \"./lib\"\n\nfn run() -> int {\n  return clamp(1) + clamp(2)\n}\n",
		"sub/use.harn": "import {clamp} from \"../lib\"\n\nfn other() -> int {\n  return clamp(3)\n}\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := func(name string) string { return "file://" + filepath.ToSlash(filepath.Join(root, name)) }
	c := lsptest.Start(t, testOptions())
	c.Initialize("file://"+filepath.ToSlash(root), map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}})
	c.Open(uri("lib.harn"), "harn", 3, files["lib.harn"])
	c.Open(uri("main.harn"), "harn", 7, files["main.harn"])
	m := c.Call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": uri("lib.harn")},
		"position": lsptest.Pos(0, 8), "newName": "bound"})
	if m.Error != nil {
		t.Fatalf("rename: %v", m.Error)
	}
	var we struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version *int   `json:"version"`
			} `json:"textDocument"`
			Edits []struct {
				NewText string `json:"newText"`
			} `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(m.Result, &we); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		version *int
		edits   int
	}{
		uri("lib.harn"):     {ptrTo(3), 1},
		uri("main.harn"):    {ptrTo(7), 3},
		uri("sub/use.harn"): {nil, 2},
	}
	if len(we.DocumentChanges) != len(want) {
		t.Fatalf("document changes %s, want %d files", m.Result, len(want))
	}
	for _, dc := range we.DocumentChanges {
		w, ok := want[dc.TextDocument.URI]
		if !ok {
			t.Errorf("unexpected edit of %s", dc.TextDocument.URI)
			continue
		}
		if (w.version == nil) != (dc.TextDocument.Version == nil) || w.version != nil && *w.version != *dc.TextDocument.Version {
			t.Errorf("%s: version %v, want %v", dc.TextDocument.URI, dc.TextDocument.Version, w.version)
		}
		if len(dc.Edits) != w.edits {
			t.Errorf("%s: %d edits, want %d", dc.TextDocument.URI, len(dc.Edits), w.edits)
		}
		for _, e := range dc.Edits {
			if e.NewText != "bound" {
				t.Errorf("%s: edit to %q", dc.TextDocument.URI, e.NewText)
			}
		}
	}
}

func ptrTo(n int) *int { return &n }
