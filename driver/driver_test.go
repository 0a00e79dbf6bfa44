package driver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

func writeTree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDiscover(t *testing.T) {
	root := writeTree(t, "b.harn", "a/z.leia", "a/y.harn", ".git/x.harn", "node_modules/m.harn",
		"deep/node_modules/n.leia", "notes.md", "c.HARN")
	rel := func(ps []string) string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(r))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name  string
		paths []string
		exts  []string
		want  string
		err   string
	}{
		{"walk sorted, skipping vcs and deps", []string{root}, Extensions, "a/y.harn a/z.leia b.harn", ""},
		{"only harn", []string{root}, []string{".harn"}, "a/y.harn b.harn", ""},
		{"explicit files keep order, no duplicates", []string{filepath.Join(root, "b.harn"), root}, Extensions, "b.harn a/y.harn a/z.leia", ""},
		{"explicit file of other kind", []string{filepath.Join(root, "notes.md")}, Extensions, "", "not a .harn or .leia file"},
		{"missing path", []string{filepath.Join(root, "nope")}, Extensions, "", "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Discover(tc.paths, tc.exts)
			if tc.err != "" {
				var ue *UsageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want usage error containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rel(got) != tc.want {
				t.Errorf("got %q, want %q", rel(got), tc.want)
			}
		})
	}
}

func TestCheckUsesRegisteredLanguage(t *testing.T) {
	root := writeTree(t, "a.leia", "b.harn")
	Register(Language{Name: "Leia", Extension: ".leia", Check: func(path string, src []byte) Result {
		return Result{Diagnostics: []diagnostics.Diagnostic{
			diagnostics.New(path, diagnostics.SourceParser, "LEIA1001", diagnostics.Span{Start: 0, End: 1}, "bad"),
		}, Manifest: []byte(`{"sites":[]}`)}
	}})
	defer func() {
		mu.Lock()
		delete(languages, ".leia")
		mu.Unlock()
	}()
	r, err := Check([]string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 2 {
		t.Fatalf("%d files", len(r.Files))
	}
	leia, harn := r.Files[0], r.Files[1]
	if len(leia.Diagnostics) != 1 || leia.Diagnostics[0].Code != "LEIA1001" || string(leia.Manifest) != `{"sites":[]}` {
		t.Errorf("leia file: %+v", leia)
	}
	if len(harn.Diagnostics) != 1 || harn.Diagnostics[0].Code != "HARN-CHK-001" || harn.Diagnostics[0].Severity != diagnostics.Info {
		t.Errorf("unregistered harn file must carry HARN-CHK-001: %+v", harn.Diagnostics)
	}
}
