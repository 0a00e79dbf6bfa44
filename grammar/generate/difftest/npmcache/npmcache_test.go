package npmcache

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPackageNames(t *testing.T) {
	cases := []struct {
		p         Package
		spec, key string
	}{
		{Package{Name: "tree-sitter-json", Version: "0.24.8"}, "tree-sitter-json@0.24.8", "tree-sitter-json-0.24.8"},
		{Package{Name: "@tree-sitter-grammars/tree-sitter-toml", Version: "0.7.0"},
			"@tree-sitter-grammars/tree-sitter-toml@0.7.0", "tree-sitter-grammars__tree-sitter-toml-0.7.0"},
	}
	for _, c := range cases {
		if got := c.p.Spec(); got != c.spec {
			t.Errorf("Spec() = %q, want %q", got, c.spec)
		}
		if got := c.p.Key(); got != c.key {
			t.Errorf("Key() = %q, want %q", got, c.key)
		}
	}
	required := 0
	seen := map[string]bool{}
	for _, p := range Grammars {
		if seen[p.Key()] {
			t.Errorf("duplicate package %s", p.Key())
		}
		seen[p.Key()] = true
		if !p.Stretch {
			required++
		}
	}
	if required != 7 {
		t.Errorf("%d required packages, issue 3 names 7", required)
	}
}

func tgz(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	p := filepath.Join(t.TempDir(), "x.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUntar(t *testing.T) {
	cases := []struct {
		name    string
		files   map[string]string
		wantErr string
	}{
		{"plain", map[string]string{"package/src/parser.c": "int x;", "package/grammar.js": "//"}, ""},
		{"escape", map[string]string{"package/../../evil": "x"}, "escapes"},
		{"absolute", map[string]string{"/etc/evil": "x"}, "escapes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			err := untar(tgz(t, c.files), dir)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for name, body := range c.files {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || string(got) != body {
					t.Errorf("%s: %q, %v", name, got, err)
				}
			}
		})
	}
}

// TestFetchUsesCache checks that a tarball already in the cache is unpacked
// without running npm, and that the result is reused.
func TestFetchUsesCache(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HARN_NPM_CACHE", root)
	t.Setenv("PATH", t.TempDir()) // no npm: a download attempt would fail
	p := Package{Name: "@scope/tree-sitter-demo", Version: "1.2.3"}
	src := tgz(t, map[string]string{"package/grammar.js": "module.exports = 1;"})
	os.MkdirAll(filepath.Join(root, "tarballs"), 0o755)
	data, _ := os.ReadFile(src)
	os.WriteFile(filepath.Join(root, "tarballs", "scope-tree-sitter-demo-1.2.3.tgz"), data, 0o644)
	for i := range 2 {
		dir, err := Fetch(context.Background(), p)
		if err != nil {
			t.Fatalf("fetch %d: %v", i, err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "grammar.js")); err != nil || string(got) != "module.exports = 1;" {
			t.Fatalf("fetch %d: grammar.js = %q, %v", i, got, err)
		}
	}
	_, err := Fetch(context.Background(), Package{Name: "tree-sitter-absent", Version: "0.0.1"})
	if err == nil || errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "npm not found") {
		t.Fatalf("missing npm: got %v, want a clear 'npm not found' error", err)
	}
}
