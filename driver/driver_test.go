package driver

import (
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

// A fake language whose files import others with `import PATH` lines; its
// result depends on the imported files' content.
func registerImporting(t *testing.T, calls *int) {
	t.Helper()
	Register(Language{Name: "Leia", Extension: ".leia", Check: func(path string, src []byte) Result {
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
	}})
	t.Cleanup(func() {
		mu.Lock()
		delete(languages, ".leia")
		mu.Unlock()
	})
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
	registerImporting(t, &calls)
	cache, err := checkcache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Cache: cache, Salt: "test"}
	render := func() string {
		r, err := Check([]string{root}, opts)
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
		if _, err := Check([]string{root}, other); err != nil || calls != 6 {
			t.Errorf("a new salt must not reuse entries (%d calls)", calls)
		}
	}
}

func TestCheckSourceWithUsesTheReader(t *testing.T) {
	Register(Language{Name: "Test", Extension: ".tst",
		Check: func(path string, src []byte) Result { return Result{} },
		CheckWith: func(path string, src []byte, read func(string) ([]byte, error)) Result {
			data, err := read("dep.tst")
			if err != nil {
				return Result{}
			}
			return Result{Sources: map[string][]byte{"dep.tst": data}}
		},
	})
	got := CheckSourceWith("a.tst", nil, func(p string) ([]byte, error) { return []byte("overlay"), nil })
	if string(got.Sources["dep.tst"]) != "overlay" {
		t.Errorf("reader not used: %+v", got)
	}
	if fallback := CheckSourceWith("a.tst", nil, nil); fallback.Sources != nil {
		t.Errorf("nil reader should fall back to Check: %+v", fallback)
	}
}

func TestCheckSourceTreeHandsOverTheTree(t *testing.T) {
	Register(Language{Name: "Tree test", Extension: ".ttst",
		Check: func(path string, src []byte) Result { return Result{} },
		CheckTree: func(path string, src []byte, tree any, read func(string) ([]byte, error)) Result {
			msg, _ := tree.(string)
			if read != nil {
				data, _ := read("dep")
				msg += "+" + string(data)
			}
			return Result{Sources: map[string][]byte{path: []byte(msg)}}
		},
	})
	Register(Language{Name: "No tree", Extension: ".nttst", Check: func(string, []byte) Result { return Result{} }})
	overlay := func(string) ([]byte, error) { return []byte("overlay"), nil }
	for _, tc := range []struct {
		name, ext string
		tree      any
		read      func(string) ([]byte, error)
		wantOK    bool
		want      string
	}{
		{"tree and reader", ".ttst", "the tree", overlay, true, "the tree+overlay"},
		{"tree, disk", ".ttst", "the tree", nil, true, "the tree"},
		{"no tree", ".ttst", nil, overlay, false, ""},
		{"language without CheckTree", ".nttst", "the tree", overlay, false, ""},
		{"unknown language", ".none", "the tree", overlay, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := CheckSourceTree(tc.ext, "a"+tc.ext, nil, tc.tree, tc.read)
			if ok != tc.wantOK || string(got.Sources["a"+tc.ext]) != tc.want {
				t.Errorf("CheckSourceTree = %q, %v; want %q, %v", got.Sources["a"+tc.ext], ok, tc.want, tc.wantOK)
			}
		})
	}
}
