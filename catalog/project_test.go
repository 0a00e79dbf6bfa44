package catalog

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

// mapLoader serves files from memory.
type mapLoader map[string]string

func (m mapLoader) ReadFile(p string) ([]byte, error) {
	if s, ok := m[filepath.ToSlash(p)]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

const acme = "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"text_generation\"]\n"

// TestFind: discovery walks up through the caller's loader, records
// every probe, and an invalid file is the one *Invalid (HARN-CFG-001),
// never a silent fallback to the built-in catalog.
func TestFind(t *testing.T) {
	tests := []struct {
		name    string
		files   mapLoader
		path    string // the project file found
		probes  int
		route   bool // acme/judge present
		invalid bool
	}{
		{"none", mapLoader{}, "", 3, false, false},
		{"parent", mapLoader{"a/harn.toml": acme}, "a/harn.toml", 2, true, false},
		{"nearest wins", mapLoader{"a/harn.toml": "[[routes]\n", "a/b/harn.toml": acme}, "a/b/harn.toml", 1, true, false},
		{"invalid", mapLoader{"a/b/harn.toml": "[[routes]]\nprovider = \"acme\"\n"}, "a/b/harn.toml", 1, false, true},
		{"unknown key", mapLoader{"a/harn.toml": acme + "api_key = \"x\"\n"}, "a/harn.toml", 2, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cat, p, err := Find(tc.files, "a/b")
			if p.Path != tc.path || len(p.Probes) != tc.probes {
				t.Errorf("found %q after %d probes, want %q after %d", p.Path, len(p.Probes), tc.path, tc.probes)
			}
			var inv *Invalid
			if tc.invalid {
				if !errors.As(err, &inv) || cat != nil {
					t.Fatalf("err %v, catalog %v: want *Invalid and no catalog", err, cat)
				}
				if d := inv.Diagnostic("x.harn"); d.Code != InvalidCode || d.Path != "x.harn" || d.Message == "" {
					t.Errorf("diagnostic %+v", d)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := cat.Lookup("acme", "judge"); ok != tc.route {
				t.Errorf("acme/judge present = %v", ok)
			}
		})
	}
}

// TestLoad: a named file that cannot be read is invalid, like a broken one.
func TestLoad(t *testing.T) {
	if _, _, err := Load(mapLoader{}, "gone.toml"); !errors.As(err, new(*Invalid)) {
		t.Errorf("missing file: %v", err)
	}
	cat, p, err := Load(mapLoader{"c.toml": acme}, "c.toml")
	if err != nil || p.Path != "c.toml" {
		t.Fatal(err, p.Path)
	}
	if _, ok := cat.Lookup("acme", "judge"); !ok {
		t.Error("route of the named file missing")
	}
}
