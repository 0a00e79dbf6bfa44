package leia

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpstreamProgramsUnchanged measures Leia compatibility on upstream's
// own programs (never-labs/gscript, read from the local copy of the files
// fetched so far; LEIA_UPSTREAM points elsewhere): its examples, smoke
// tests and benchmarks, written in upstream's house style, must come out
// unchanged (at least 95%). Its tests/language suite is left out: those
// are ports of Lua tests indented with two spaces or tabs, not upstream's
// style. Every file that parses must format faithfully and idempotently.
func TestUpstreamProgramsUnchanged(t *testing.T) {
	root := os.Getenv("LEIA_UPSTREAM")
	if root == "" {
		root = "/work/upstream/gscript"
	}
	var files []string
	for _, dir := range []string{"examples", "tests/smoke", "benchmarks"} {
		filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".leia") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skipf("SKIP: no upstream Leia programs under %s (set LEIA_UPSTREAM to a checkout of never-labs/gscript)", root)
	}
	unchanged, refused := 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		out, err := Format(src)
		if errors.Is(err, ErrSyntax) {
			refused++
			t.Logf("not formatted (our grammar rejects it): %s: %v", rel, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if err := Verify(src, out); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if again, _ := Format(out); !bytes.Equal(again, out) {
			t.Errorf("%s: not idempotent", rel)
		}
		if bytes.Equal(out, src) {
			unchanged++
		} else {
			t.Logf("changed: %s", rel)
		}
	}
	t.Logf("upstream Leia programs: %d of %d unchanged, %d not parsed", unchanged, len(files), refused)
	if float64(unchanged) < 0.95*float64(len(files)) {
		t.Errorf("only %d of %d upstream programs are unchanged", unchanged, len(files))
	}
}
