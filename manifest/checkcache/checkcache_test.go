package checkcache

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// packFiles lists the packs in the cache folder dir.
func packFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, packDir, "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// onePack flushes c and returns the path of the only pack in its folder.
func onePack(t *testing.T, c *Cache) string {
	t.Helper()
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	files := packFiles(t, c.Dir())
	if len(files) != 1 {
		t.Fatalf("%d packs, want 1", len(files))
	}
	return files[0]
}

// A record is visible to the Cache that stored it at once, and to other
// Caches (later runs) only after Flush.
func TestFlushPublishes(t *testing.T) {
	dir := t.TempDir()
	c, _ := Open(dir)
	key := Key("salt", "a.harn", []byte("src"))
	none := func(string) string { return "" }
	if err := c.Put(key, &Entry{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key, none); !ok {
		t.Error("a stored entry is not visible to its own Cache")
	}
	other, _ := Open(dir)
	if _, ok := other.Get(key, none); ok {
		t.Error("an entry was visible to another run before the flush")
	}
	onePack(t, c)
	later, _ := Open(dir)
	if _, ok := later.Get(key, none); !ok {
		t.Error("a flushed entry is not visible to a later run")
	}
	// A run that stores nothing writes no pack.
	if err := later.Flush(); err != nil || len(packFiles(t, dir)) != 1 {
		t.Errorf("flush without stores: %v, %d packs", err, len(packFiles(t, dir)))
	}
}

// Many runs' packs are merged, and every record survives the merges: the
// newest one of each key.
func TestPacksAreMerged(t *testing.T) {
	dir := t.TempDir()
	none := func(string) string { return "" }
	for run := range 3 * maxPacks {
		c, _ := Open(dir)
		for f := range 5 {
			key := Key("salt", fmt.Sprintf("f%d.harn", f), []byte("src"))
			if err := c.Put(key, &Entry{Closure: fmt.Sprint(run)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(packFiles(t, dir)); n > maxPacks {
			t.Fatalf("after run %d: %d packs, more than %d", run, n, maxPacks)
		}
	}
	c, _ := Open(dir)
	for f := range 5 {
		e, ok := c.Get(Key("salt", fmt.Sprintf("f%d.harn", f), []byte("src")), none)
		if !ok || e.Closure != fmt.Sprint(3*maxPacks-1) {
			t.Errorf("f%d: %+v %v, want the last run's entry", f, e, ok)
		}
	}
}

func TestCorruptPackIsIgnoredAndRewritten(t *testing.T) {
	dir := t.TempDir()
	c, _ := Open(dir)
	key := Key("salt", "a.harn", []byte("src"))
	_ = c.Put(key, sampleEntry())
	file := onePack(t, c)
	data, _ := os.ReadFile(file)
	none := func(string) string { return "" }
	// A record whose payload is intact but does not decode as an entry.
	badSeverity := func() []byte {
		b, _ := Open(t.TempDir())
		b.save(key, []byte(`{"diagnostics":[{"severity":"fatal"}]}`))
		d, _ := os.ReadFile(onePack(t, b))
		return d
	}()
	for name, bad := range map[string][]byte{
		"truncated":    data[:len(data)/2],
		"trailer cut":  data[:len(data)-1],
		"empty":        nil,
		"garbage":      []byte("\x00\x01not a pack"),
		"other format": append(slices.Clone(data[:len(data)-len(packMagic)]), "harn-check pack v9\n"...),
		"bad severity": badSeverity,
	} {
		if err := os.WriteFile(file, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		c, _ := Open(dir)
		if _, ok := c.Get(key, none); ok {
			t.Errorf("%s: corrupt entry used", name)
		}
		if _, err := os.Stat(file); name != "bad severity" && err == nil {
			t.Errorf("%s: the damaged pack was kept", name)
		}
		if err := c.Put(key, &Entry{Manifest: json.RawMessage(`{"sites":[]}`)}); err != nil {
			t.Fatalf("%s: rewrite failed: %v", name, err)
		}
		if err := c.Flush(); err != nil {
			t.Fatal(err)
		}
		if e, ok := c.Get(key, none); !ok || string(e.Manifest) != `{"sites":[]}` {
			t.Errorf("%s: not rewritten", name)
		}
		later, _ := Open(dir)
		if e, ok := later.Get(key, none); !ok || string(e.Manifest) != `{"sites":[]}` {
			t.Errorf("%s: the rewritten entry is not found by a later run", name)
		}
		for _, f := range packFiles(t, dir) {
			os.Remove(f)
		}
	}
}

// Writers and readers at once never produce a torn entry: every read
// either misses or decodes a complete entry, while packs are written,
// merged and removed.
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
			for i := 0; i < 20; i++ {
				c, _ := Open(dir) // a separate handle, as another process would have
				if err := c.Put(key, big); err != nil {
					t.Error(err)
					return
				}
				if err := c.Close(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	hash := func(p string) string {
		if p == "lib.harn" {
			return HashBytes([]byte("v1"))
		}
		return ""
	}
	for i := 0; i < 200; i++ {
		c, _ := Open(dir)
		if e, ok := c.Get(key, hash); ok && len(e.Sources["lib.harn"]) != 1<<20 {
			t.Fatal("decoded a partial entry")
		}
		c.Close()
	}
	wg.Wait()
	leftovers, _ := filepath.Glob(filepath.Join(dir, packDir, ".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	c, _ := Open(dir)
	if _, ok := c.Get(key, hash); !ok {
		t.Error("the entry is lost")
	}
}

// TestOneHandleManyWorkers: workers of one run store into the same pack
// at once (each record written outside the cache's lock, into its own
// range); after the flush another handle reads every record back whole.
func TestOneHandleManyWorkers(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 4, 50
	entry := func(w, i int) *Entry {
		e := sampleEntry()
		e.Sources["lib.harn"] = []byte(fmt.Sprintf("worker %d record %d %s", w, i, make([]byte, (w*each+i)*37)))
		return e
	}
	key := func(w, i int) string { return Key("salt", fmt.Sprintf("f%d-%d.harn", w, i), []byte("src")) }
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := c.Put(key(w, i), entry(w, i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	hash := func(p string) string {
		if p == "lib.harn" {
			return HashBytes([]byte("v1"))
		}
		return ""
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for w := range workers {
		for i := range each {
			got, ok := r.Get(key(w, i), hash)
			if !ok || !reflect.DeepEqual(got, entry(w, i)) {
				t.Fatalf("record %d of worker %d: found %v, not the one stored", i, w, ok)
			}
		}
	}
	if packs, _ := filepath.Glob(filepath.Join(dir, packDir, "*.pack")); len(packs) != 1 {
		t.Errorf("%d packs, want the run's one", len(packs))
	}
}
