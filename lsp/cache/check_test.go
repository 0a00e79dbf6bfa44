package cache

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/harnlang/harn-check/driver"
)

// unchecked are Harn and Leia without their checkers, the file kinds a
// store of this package's tests knows.
var unchecked = Languages{Check: driver.Languages{{Name: "Harn", Extension: ".harn"}, {Name: "Leia", Extension: ".leia"}}}

// TestCheckMatchesCLI pins the server's analysis of a document to what
// `harn-check check` reports for the same bytes on disk.
func TestCheckMatchesCLI(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.harn", "b.leia"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			src := "let x = 1\n"
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			report, err := unchecked.Check.CheckPaths([]string{p}, driver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := NewStore(unchecked).Open(PathToURI(p), "", 1, src)
			res, err := d.Check()
			if err != nil {
				t.Fatal(err)
			}
			want := report.Files[0].Diagnostics
			if len(want) == 0 || !reflect.DeepEqual(res.Diagnostics, want) {
				t.Errorf("server diagnostics\n%+v\nCLI diagnostics\n%+v", res.Diagnostics, want)
			}
		})
	}
}

func TestCheckRecoversPanics(t *testing.T) {
	langs := Languages{Check: driver.Languages{{Name: "Panic", Extension: ".panics", Check: func(driver.Request) driver.Result {
		panic("boom")
	}}}}
	d := NewStore(langs).Open("file:///w/x.panics", "", 1, "x")
	if _, err := d.Check(); err == nil {
		t.Fatal("a checker panic must become an error")
	}
}

func TestURIPath(t *testing.T) {
	for _, tc := range []struct{ uri, path string }{
		{"file:///w/a%20b.harn", "/w/a b.harn"},
		{"untitled:Untitled-1", ""},
		{"file:///C:/w/x.harn", "C:/w/x.harn"},
	} {
		if got := filepath.ToSlash(URIToPath(tc.uri)); got != tc.path {
			t.Errorf("URIToPath(%q) = %q, want %q", tc.uri, got, tc.path)
		}
	}
	if got := PathToURI("/w/a b.harn"); got != "file:///w/a%20b.harn" {
		t.Errorf("PathToURI = %q", got)
	}
}
