package checkcache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

func sampleEntry() *Entry {
	return &Entry{
		Diagnostics: []diagnostics.Diagnostic{{
			Path: "a.harn", Source: diagnostics.SourceType, Code: "HARN-TYP-002", Severity: diagnostics.Warning,
			Message: "\"hgih\" is not a declared label", Span: diagnostics.Span{Start: 3, End: 9},
			Related: []diagnostics.Related{{Path: "lib.harn", Span: diagnostics.Span{Start: 1, End: 2}, Message: "declared here"}},
			Help:    "did you mean \"high\"?",
			Fixes:   []diagnostics.Fix{{Title: "Replace", Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: 3, End: 9}, NewText: "\"high\""}}}},
		}},
		Manifest: json.RawMessage(`{"schema":"harn.predicate_sites.v2","sites":[]}`),
		Sources:  map[string][]byte{"lib.harn": []byte("fn x() {}\n\xff invalid utf-8 kept")},
		Deps:     []Dep{{Path: "lib.harn", SHA256: HashBytes([]byte("v1"))}, {Path: "harn.toml", SHA256: ""}},
	}
}

func TestRoundTripIsExact(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key := Key("salt", "a.harn", []byte("src"))
	want := sampleEntry()
	if err := c.Put(key, want); err != nil {
		t.Fatal(err)
	}
	hash := func(p string) string {
		if p == "lib.harn" {
			return HashBytes([]byte("v1"))
		}
		return ""
	}
	got, ok := c.Get(key, hash)
	if !ok {
		t.Fatal("miss after put")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, want)
	}
	// A null manifest stays nil.
	if err := c.Put(key, &Entry{}); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key, hash); !ok || got.Manifest != nil || len(got.Diagnostics) != 0 {
		t.Errorf("empty entry: %+v %v", got, ok)
	}
}

func TestDepsInvalidate(t *testing.T) {
	c, _ := Open(t.TempDir())
	key := Key("salt", "a.harn", []byte("src"))
	_ = c.Put(key, sampleEntry())
	for name, hash := range map[string]func(string) string{
		"imported helper edited": func(p string) string {
			if p == "lib.harn" {
				return HashBytes([]byte("v2"))
			}
			return ""
		},
		"catalog created where none was": func(p string) string {
			if p == "lib.harn" {
				return HashBytes([]byte("v1"))
			}
			return HashBytes([]byte("[routes]"))
		},
		"helper deleted": func(string) string { return "" },
	} {
		if _, ok := c.Get(key, hash); ok {
			t.Errorf("%s: stale entry used", name)
		}
	}
}

func TestKeyCoversPathContentAndSalt(t *testing.T) {
	base := Key("s", "a.harn", []byte("x"))
	for _, k := range []string{Key("t", "a.harn", []byte("x")), Key("s", "b.harn", []byte("x")), Key("s", "a.harn", []byte("y"))} {
		if k == base {
			t.Error("key collision")
		}
	}
}

func TestCorruptEntryIsIgnoredAndRewritten(t *testing.T) {
	c, _ := Open(t.TempDir())
	key := Key("salt", "a.harn", []byte("src"))
	_ = c.Put(key, sampleEntry())
	data, _ := os.ReadFile(c.file(key))
	for name, bad := range map[string][]byte{
		"truncated":    data[:len(data)/2],
		"empty":        nil,
		"garbage":      []byte("\x00\x01not json"),
		"other format": []byte(`{"format":99}`),
		"bad severity": []byte(`{"format":1,"diagnostics":[{"severity":"fatal"}]}`),
	} {
		if err := os.WriteFile(c.file(key), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Get(key, func(string) string { return "" }); ok {
			t.Errorf("%s: corrupt entry used", name)
		}
		if err := c.Put(key, &Entry{Manifest: json.RawMessage(`{"sites":[]}`)}); err != nil {
			t.Fatalf("%s: rewrite failed: %v", name, err)
		}
		if e, ok := c.Get(key, func(string) string { return "" }); !ok || string(e.Manifest) != `{"sites":[]}` {
			t.Errorf("%s: not rewritten", name)
		}
	}
}

// Two writers and readers at once never produce a torn entry: every read
// either misses or decodes a complete entry.
func TestConcurrentWritersNeverTear(t *testing.T) {
	dir := t.TempDir()
	key := Key("salt", "a.harn", []byte("src"))
	big := sampleEntry()
	big.Sources["lib.harn"] = make([]byte, 1<<20)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _ := Open(dir) // a separate handle, as another process would have
			for i := 0; i < 20; i++ {
				if err := c.Put(key, big); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	c, _ := Open(dir)
	hash := func(p string) string {
		if p == "lib.harn" {
			return HashBytes([]byte("v1"))
		}
		return ""
	}
	for i := 0; i < 200; i++ {
		if data, err := os.ReadFile(c.file(key)); err == nil && !json.Valid(data) {
			t.Fatal("read a torn entry")
		}
		if e, ok := c.Get(key, hash); ok && len(e.Sources["lib.harn"]) != 1<<20 {
			t.Fatal("decoded a partial entry")
		}
	}
	wg.Wait()
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}
