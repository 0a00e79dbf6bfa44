package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/lsptest"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// TestWorkspaceDiagnostics drives workspace/diagnostic (LSP 3.17) on a
// folder of Harn and Leia files: the files not open are checked as
// harn-check checks them, through the check cache, each a full report
// (an empty one for a clean file); an open document is left to
// textDocument/diagnostic; a file sent back with its result id and the
// same diagnostics is "unchanged", and one edited on disk since is full
// again.
func TestWorkspaceDiagnostics(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return string(cache.PathToURI(p))
	}
	broken := write("broken.harn", "pipeline default(task) {\n  log(nowhere)\n}\n")
	clean := write("sub/clean.leia", "func main() {\n  print(1)\n}\n")
	open := write("open.harn", "pipeline default(task) {\n  log(also_nowhere)\n}\n")
	cc, err := checkcache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions()
	opts.CheckCache = cc
	c := lsptest.Start(t, opts)
	init := c.Initialize(string(cache.PathToURI(dir)), nil)
	if !strings.Contains(string(init.Result), `"workspaceDiagnostics":true`) {
		t.Fatalf("workspaceDiagnostics not announced: %s", init.Result)
	}
	c.Open(open, "harn", 1, "pipeline default(task) {\n  log(1)\n}\n")
	type item struct {
		Kind, URI, ResultID string
		Version             *int
		Items               *[]struct{ Code, Message string }
	}
	pull := func(previous map[string]string) map[string]item {
		t.Helper()
		var prev []map[string]string
		for uri, id := range previous {
			prev = append(prev, map[string]string{"uri": uri, "value": id})
		}
		m := c.Call(lsp.MethodWorkspaceDiagnostic, map[string]any{"previousResultIds": prev})
		if m.Error != nil {
			t.Fatal(m.Error)
		}
		var r struct{ Items []item }
		if err := json.Unmarshal(m.Result, &r); err != nil {
			t.Fatalf("%s: %v", m.Result, err)
		}
		out := map[string]item{}
		for _, it := range r.Items {
			if it.Version != nil {
				t.Errorf("%s: version %d, want null (not open)", it.URI, *it.Version)
			}
			out[it.URI] = it
		}
		return out
	}
	describe := func(got map[string]item) string {
		var parts []string
		for uri, it := range got {
			s := filepath.Base(uri) + " " + it.Kind
			if it.Items != nil {
				for _, d := range *it.Items {
					s += " " + d.Code
				}
			}
			parts = append(parts, s)
		}
		sort.Strings(parts)
		return strings.Join(parts, "; ")
	}
	first := pull(nil)
	if got, want := describe(first), "broken.harn full HARN-NAM-001; clean.leia full"; got != want {
		t.Fatalf("first pull: %s, want %s", got, want)
	}
	// The results went into the check cache, where the next pull (and
	// harn-check) finds them.
	if entries, err := os.ReadDir(cc.Dir()); err != nil || len(entries) == 0 {
		t.Errorf("the check cache holds nothing after the pull (%v)", err)
	}
	ids := map[string]string{broken: first[broken].ResultID, clean: first[clean].ResultID}
	if got, want := describe(pull(ids)), "broken.harn unchanged; clean.leia unchanged"; got != want {
		t.Errorf("pull with the result ids: %s, want %s", got, want)
	}
	write("broken.harn", "pipeline default(task) {\n  log(1)\n}\n")
	if got, want := describe(pull(ids)), "broken.harn full; clean.leia unchanged"; got != want {
		t.Errorf("pull after fixing broken.harn on disk: %s, want %s", got, want)
	}
}
