package checkcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTamperedEntryIsIgnored: a record edited in its pack (a diagnostic's
// code changed, the JSON still valid) fails its checksum and is not used;
// an index edited to point elsewhere fails the index's checksum; a
// truncated pack is not used.
func TestTamperedEntryIsIgnored(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := Key("salt", "a.harn", []byte("src"))
	if err := c.Put(key, sampleEntry()); err != nil {
		t.Fatal(err)
	}
	file := onePack(t, c)
	hash := func(p string) string {
		if p == "lib.harn" {
			return HashBytes([]byte("v1"))
		}
		return ""
	}
	if _, ok := c.Get(key, hash); !ok {
		t.Fatal("intact entry not found")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func([]byte) []byte{
		"diagnostic code changed": func(b []byte) []byte {
			return []byte(strings.Replace(string(b), "HARN-TYP-002", "HARN-TYP-XYZ", 1))
		},
		"record offset changed": func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"o":0,`, `"o":1,`, 1))
		},
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
	} {
		forged := edit(slices.Clone(data))
		if string(forged) == string(data) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := os.WriteFile(file, forged, 0o600); err != nil {
			t.Fatal(err)
		}
		c, _ := Open(dir)
		if _, ok := c.Get(key, hash); ok {
			t.Errorf("%s: a tampered entry was trusted", name)
		}
	}
}

// TestUnsafeFoldersAreRefused: a folder writable by others, or owned by
// another user, is not opened; one made by Open is private.
func TestUnsafeFoldersAreRefused(t *testing.T) {
	base := t.TempDir()
	fresh := filepath.Join(base, "fresh", "cache")
	c, err := Open(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(c.Dir()); info.Mode().Perm()&0o077 != 0 {
		t.Errorf("a new cache folder has mode %v, want owner-only", info.Mode().Perm())
	}
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777)
	var ue *UnsafeError
	if _, err := Open(open); !errors.As(err, &ue) || ue.Why != "writable by others" {
		t.Errorf("world-writable folder: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the other-owner case needs chown")
		return
	}
	other := filepath.Join(base, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(other, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(other); !errors.As(err, &ue) || !strings.Contains(ue.Why, "owned by another user") {
		t.Errorf("folder of another user: %v", err)
	}
	// A pack another user planted is ignored, and left in place.
	c2, _ := Open(filepath.Join(base, "mine"))
	key := Key("s", "x", nil)
	if err := c2.Put(key, &Entry{}); err != nil {
		t.Fatal(err)
	}
	pack := onePack(t, c2)
	if err := os.Chown(pack, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	c3, _ := Open(c2.Dir())
	if _, ok := c3.Get(key, func(string) string { return "" }); ok {
		t.Error("an entry owned by another user was trusted")
	}
	if _, err := os.Stat(pack); err != nil {
		t.Errorf("another user's pack was removed: %v", err)
	}
}

func TestModuleRecordsRoundTrip(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := Module{Path: "/w/a.harn", SHA256: HashBytes([]byte("a")), Imports: []string{"/w/b.harn", "/w/missing.harn"}}
	if err := c.PutModule("salt", m); err != nil {
		t.Fatal(err)
	}
	got, ok := c.GetModule("salt", m.Path, m.SHA256)
	if !ok || fmt.Sprint(got) != fmt.Sprint(m) {
		t.Errorf("GetModule = %+v, %v", got, ok)
	}
	if _, ok := c.GetModule("other salt", m.Path, m.SHA256); ok {
		t.Error("a record of another build was found")
	}
	if _, ok := c.GetModule("salt", m.Path, HashBytes([]byte("b"))); ok {
		t.Error("a record of other content was found")
	}
}

// graph is a module graph for fingerprint tests: path -> imports, with
// content "v1" unless changed.
type graph map[string][]string

func (g graph) lookup(content map[string]string) func(string) (Module, bool) {
	return func(p string) (Module, bool) {
		imps, ok := g[p]
		if !ok {
			return Module{Path: p}, true // missing: no content, no imports
		}
		c := content[p]
		if c == "" {
			c = "v1"
		}
		return Module{Path: p, SHA256: HashBytes([]byte(c)), Imports: imps}, true
	}
}

func TestFingerprints(t *testing.T) {
	g := graph{
		"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": {},
		"x": {"y"}, "y": {"z"}, "z": {"x", "d"}, // a cycle that imports d
		"m": {"gone"},
	}
	fp := func(content map[string]string, root string) string {
		f := &Fingerprinter{Lookup: g.lookup(content)}
		s, ok := f.Fingerprint(root)
		if !ok {
			t.Fatalf("no fingerprint for %s", root)
		}
		return s
	}
	base := map[string]string{}
	for _, tc := range []struct {
		name, root, changed string
		same                bool
	}{
		{"leaf change reaches the root", "a", "d", false},
		{"sibling change", "a", "c", false},
		{"unrelated change", "a", "x", true},
		{"cycle member change", "x", "y", false},
		{"below the cycle", "x", "d", false},
		{"above the cycle is unrelated", "d", "x", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fp(map[string]string{tc.changed: "v2"}, tc.root) == fp(base, tc.root)
			if got != tc.same {
				t.Errorf("fingerprint unchanged = %v, want %v", got, tc.same)
			}
		})
	}
	// Every member of a cycle has the cycle's fingerprint, found from any
	// of them first.
	f := &Fingerprinter{Lookup: g.lookup(base)}
	fy, _ := f.Fingerprint("y")
	fx, _ := f.Fingerprint("x")
	if fx != fy || fx != fp(base, "z") {
		t.Error("cycle members differ")
	}
	// A module that appears changes the fingerprint of its importer.
	before := fp(base, "m")
	g["gone"] = []string{}
	if fp(base, "m") == before {
		t.Error("a module that appeared did not change the importer's fingerprint")
	}
	// No record: no fingerprint.
	f = &Fingerprinter{Lookup: func(p string) (Module, bool) {
		if p == "d" {
			return Module{}, false
		}
		return g.lookup(base)(p)
	}}
	if _, ok := f.Fingerprint("a"); ok {
		t.Error("fingerprint without a record of d")
	}
}

// TestFingerprintsAreLinear: a 100,000-module chain and a 20,000-module
// cycle are fingerprinted from every module, which must not take
// quadratic work (this would take minutes if it did).
func TestFingerprintsAreLinear(t *testing.T) {
	const n = 100000
	lookups := 0
	f := &Fingerprinter{Lookup: func(p string) (Module, bool) {
		lookups++
		var i int
		fmt.Sscanf(p, "m%d", &i)
		m := Module{Path: p, SHA256: "x"}
		if i+1 < n {
			m.Imports = []string{fmt.Sprintf("m%d", i+1)}
		}
		return m, true
	}}
	for i := range n {
		if _, ok := f.Fingerprint(fmt.Sprintf("m%d", i)); !ok {
			t.Fatal("no fingerprint")
		}
	}
	if lookups != n {
		t.Errorf("%d lookups for %d modules", lookups, n)
	}
	const c = 20000
	f = &Fingerprinter{Lookup: func(p string) (Module, bool) {
		var i int
		fmt.Sscanf(p, "c%d", &i)
		return Module{Path: p, SHA256: "x", Imports: []string{fmt.Sprintf("c%d", (i+1)%c)}}, true
	}}
	first, _ := f.Fingerprint("c0")
	for i := range c {
		if got, _ := f.Fingerprint(fmt.Sprintf("c%d", i)); got != first {
			t.Fatal("cycle members differ")
		}
	}
}
