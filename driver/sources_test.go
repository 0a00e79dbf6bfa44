package driver

import (
	"path"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// A run keeps the source of a file only when a diagnostic needs it (its
// own, or another file's pointing into it), and the manifests only when
// asked to.
func TestCheckPathsKeepsWhatDiagnosticsNeed(t *testing.T) {
	root := writeTree(t, "a.leia", "b.leia", "c.leia", "d.leia")
	langs := Languages{{Name: "Leia", Extension: ".leia", Check: func(req Request) Result {
		res := Result{Manifest: []byte(`{"sites":[]}`)}
		dir := path.Dir(req.Path)
		switch path.Base(req.Path) {
		case "a.leia":
			d := diagnostics.New(req.Path, diagnostics.SourceType, "LEIA1001", diagnostics.Span{Start: 0, End: 1}, "bad")
			d.Related = []diagnostics.Related{{Path: dir + "/b.leia", Span: diagnostics.Span{Start: 0, End: 1}, Message: "there"}}
			res.Diagnostics = []diagnostics.Diagnostic{d}
		case "d.leia":
			d := diagnostics.New(req.Path, diagnostics.SourceType, "LEIA1001", diagnostics.Span{Start: 0, End: 1}, "fixable")
			d.Fixes = []diagnostics.Fix{{Title: "edit c", Edits: []diagnostics.TextEdit{{Path: dir + "/c.leia", Span: diagnostics.Span{Start: 0, End: 1}, NewText: "y"}}}}
			res.Diagnostics = []diagnostics.Diagnostic{d}
		}
		return res
	}}}
	for _, tc := range []struct {
		name        string
		noManifests bool
	}{{"with manifests", false}, {"without manifests", true}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, workers := range []int{1, 2} {
				r, err := langs.CheckPaths([]string{root}, Options{Workers: workers, NoManifests: tc.noManifests})
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Files) != 4 {
					t.Fatalf("%d files", len(r.Files))
				}
				// a and d have diagnostics; b is pointed into by a's, c
				// edited by d's fix: all four sources are needed.
				for _, f := range r.Files {
					if string(f.Source) != "x\n" {
						t.Errorf("%s: source %q, want the file's content", f.Path, f.Source)
					}
					if got := f.Manifest != nil; got == tc.noManifests {
						t.Errorf("%s: manifest %q with NoManifests %v", f.Path, f.Manifest, tc.noManifests)
					}
				}
			}
		})
	}
	// Without the diagnostics nothing needs the sources.
	quiet := Languages{{Name: "Leia", Extension: ".leia", Check: func(req Request) Result { return Result{} }}}
	r, err := quiet.CheckPaths([]string{root}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Files {
		if f.Source != nil {
			t.Errorf("%s: source kept for a file without diagnostics", f.Path)
		}
	}
}

// A run without a cache keeps no module records (nothing reads them); a
// run with one keeps them for its closure fingerprints.
func TestCheckPathsRecordsModulesForTheCache(t *testing.T) {
	root := writeTree(t, "a.leia")
	var session *Session
	langs := Languages{{Name: "Leia", Extension: ".leia", Check: func(req Request) Result {
		req.Session.RecordModule(req.Path, "sum", nil)
		session = req.Session
		return Result{}
	}}}
	if _, err := langs.CheckPaths([]string{root}, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := len(session.Modules()); n != 0 {
		t.Errorf("without a cache: %d module records, want none", n)
	}
	cache, err := checkcache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := langs.CheckPaths([]string{root}, Options{Cache: cache, Salt: "t"}); err != nil {
		t.Fatal(err)
	}
	if n := len(session.Modules()); n != 1 {
		t.Errorf("with a cache: %d module records, want 1", n)
	}
}
