package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/manifest/checkcache"
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
	known := []string{".harn", ".leia"}
	root := writeTree(t, "b.harn", "a/z.leia", "a/y.harn", ".git/x.harn", "node_modules/m.harn",
		"deep/node_modules/n.leia", "notes.md", "c.HARN")
	rel := func(ps []Found) string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p.Path)
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
		{"walk sorted, skipping vcs and deps", []string{root}, known, "a/y.harn a/z.leia b.harn", ""},
		{"only harn", []string{root}, []string{".harn"}, "a/y.harn b.harn", ""},
		{"explicit files keep order, no duplicates", []string{filepath.Join(root, "b.harn"), root}, known, "b.harn a/y.harn a/z.leia", ""},
		{"explicit file of other kind", []string{filepath.Join(root, "notes.md")}, known, "", "not a .harn or .leia file"},
		{"missing path", []string{filepath.Join(root, "nope")}, known, "", "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Discover(tc.paths, DiscoverOptions{Extensions: tc.exts})
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

func TestCheckUsesListedLanguage(t *testing.T) {
	root := writeTree(t, "a.leia", "b.harn")
	langs := Languages{{Name: "Harn", Extension: ".harn"}, {Name: "Leia", Extension: ".leia", Check: func(req Request) Result {
		path := req.Path
		return Result{Diagnostics: []diagnostics.Diagnostic{
			diagnostics.New(path, diagnostics.SourceParser, "LEIA1001", diagnostics.Span{Start: 0, End: 1}, "bad"),
		}, Manifest: []byte(`{"sites":[]}`)}
	}}}
	r, err := langs.CheckPaths([]string{root}, Options{})
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
		t.Errorf("a listed language without a checker must give HARN-CHK-001: %+v", harn.Diagnostics)
	}
}

// A fake language whose files import others with `import PATH` lines; its
// result depends on the imported files' content.
func importing(calls *int) Languages {
	return Languages{{Name: "Leia", Extension: ".leia", Check: func(req Request) Result {
		path, src := req.Path, req.Source
		*calls++
		var res Result
		for _, line := range strings.Split(string(src), "\n") {
			dep, ok := strings.CutPrefix(line, "import ")
			if !ok {
				continue
			}
			dep = filepath.Join(filepath.Dir(path), dep)
			content, err := os.ReadFile(dep)
			res.Deps = append(res.Deps, checkcache.Dep{Path: dep, SHA256: checkcache.HashFile(dep)})
			if err == nil && strings.Contains(string(content), "broken") {
				res.Diagnostics = append(res.Diagnostics, diagnostics.New(path, diagnostics.SourcePredicate, "LEIA1001",
					diagnostics.Span{Start: 0, End: len(line)}, "imported module "+dep+" is broken"))
			}
		}
		res.Manifest = []byte(`{"sites":[]}`)
		return res
	}}}
}

func TestCacheReproducesAndInvalidates(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.leia", "import helper.lib\n")
	write("other.leia", "import helper.lib\n")
	write("helper.lib", "fine\n")
	calls := 0
	langs := importing(&calls)
	cache, err := checkcache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Cache: cache, Salt: "test"}
	render := func() string {
		r, err := langs.CheckPaths([]string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := diagnostics.RenderJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	cold := render()
	if calls != 2 {
		t.Fatalf("cold run checked %d files, want 2", calls)
	}
	if warm := render(); warm != cold || calls != 2 {
		t.Errorf("warm run re-checked (%d calls) or differs:\n%s\n%s", calls, warm, cold)
	}
	write("helper.lib", "broken\n")
	edited := render()
	if calls != 4 || edited == cold || strings.Count(edited, "is broken") != 2 {
		t.Errorf("editing the helper must invalidate both importers: %d calls\n%s", calls, edited)
	}
	if again := render(); again != edited || calls != 4 {
		t.Errorf("second warm run differs or re-checked (%d calls)", calls)
	}
	if other := (Options{Cache: cache, Salt: "new build"}); true {
		if _, err := langs.CheckPaths([]string{root}, other); err != nil || calls != 6 {
			t.Errorf("a new salt must not reuse entries (%d calls)", calls)
		}
	}
}

// TestCheckHandsTheRequestOver: the language's one check function sees
// the request as given (reader, tree, context), and its language is the
// one Ext names, else the path's.
func TestCheckHandsTheRequestOver(t *testing.T) {
	langs := Languages{{Name: "Request test", Extension: ".rtst", Check: func(req Request) Result {
		msg := "checked"
		if tree, ok := req.Tree.(string); ok {
			msg += " tree=" + tree
		}
		if data, err := req.ReadFile("dep"); err == nil {
			msg += " read=" + string(data)
		}
		if req.Ctx().Err() != nil {
			msg += " cancelled"
		}
		return Result{Sources: map[string][]byte{req.Path: []byte(msg)}}
	}}}
	overlay := func(string) ([]byte, error) { return []byte("overlay"), nil }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"tree and reader", Request{Path: "a.rtst", Tree: "T", Read: overlay}, "checked tree=T read=overlay"},
		{"disk reader", Request{Path: "a.rtst", Read: nil}, "checked"},
		{"language by Ext", Request{Path: "a.txt", Ext: ".rtst", Read: overlay}, "checked read=overlay"},
		{"cancelled", Request{Path: "a.rtst", Context: cancelled}, "checked cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := langs.Check(tc.req)
			if string(got.Sources[tc.req.Path]) != tc.want {
				t.Errorf("Check = %+v, want %q", got, tc.want)
			}
		})
	}
	if got := langs.Check(Request{Path: "a.none"}); len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != "HARN-CHK-001" {
		t.Errorf("a file of no listed language must carry HARN-CHK-001: %+v", got)
	}
}
