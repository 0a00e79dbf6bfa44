package builtins

import (
	"sync"
	"testing"
)

// parsedCount is the number of entries of t parsed so far.
func parsedCount(t *table) int {
	n := 0
	for _, es := range t.files {
		for i := range es {
			if es[i].parsed.Load() != nil {
				n++
			}
		}
	}
	return n
}

// TestLookupParsesOnlyWhatItReturns: the index parses no entry; a
// lookup parses the entry it returns and no other, and listing the
// whole table parses the rest, returning the entries already handed
// out rather than second copies.
func TestLookupParsesOnlyWhatItReturns(t *testing.T) {
	tab := newTable()
	if errs := append(tab.scan("builtins.spec", spec), tab.scan("methods.spec", methodSpec)...); len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := parsedCount(tab); n != 0 {
		t.Fatalf("the scan parsed %d entries, want none", n)
	}
	lookups := []struct {
		name string
		get  func() *Builtin
	}{
		{"println", func() *Builtin { return tab.entry(tab.funcs["println"]).b }},
		{"stream.map", func() *Builtin { return tab.entry(tab.funcs["stream.map"]).b }},
		{"list.filter (by its alias select)", func() *Builtin { return tab.entry(tab.methods["list"]["select"]).b }},
		{"list.count (property)", func() *Builtin { return tab.entry(tab.props["list"]["count"]).b }},
	}
	got := map[string]*Builtin{}
	for i, l := range lookups {
		b := l.get()
		if b == nil {
			t.Fatalf("%s: not found", l.name)
		}
		got[b.Name] = b
		if n := parsedCount(tab); n != i+1 {
			t.Errorf("after looking up %s, %d entries are parsed, want %d", l.name, n, i+1)
		}
		if l.get() != b {
			t.Errorf("%s: a second lookup returns another entry", l.name)
		}
	}
	w := tab.everything()
	for _, b := range w.builtins {
		if g := got[b.Name]; g != nil && g != b {
			t.Errorf("the whole table holds a second copy of %s", b.Name)
		}
	}
	if len(w.errs) > 0 {
		t.Error(w.errs)
	}
	if n, total := parsedCount(tab), len(tab.funcs)+len(tab.values); n < total {
		t.Errorf("after listing the table %d entries are parsed, want at least %d", n, total)
	}
}

// TestConcurrentLookups: entries parsed at their first use from many
// goroutines at once are parsed once (run with -race).
func TestConcurrentLookups(t *testing.T) {
	tab := newTable()
	tab.scan("builtins.spec", spec)
	tab.scan("methods.spec", methodSpec)
	names := []string{"println", "len", "read_file", "stream.map", "json_parse"}
	results := make([][]*Builtin, 8)
	var wg sync.WaitGroup
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range names {
				var b *Builtin
				if e := tab.funcs[n]; e != nil {
					b = tab.entry(e).b
				}
				results[g] = append(results[g], b)
			}
		}()
	}
	wg.Wait()
	for g := range results {
		for i, b := range results[g] {
			if b == nil || b != results[0][i] {
				t.Errorf("goroutine %d: %s is %p, goroutine 0 got %p", g, names[i], b, results[0][i])
			}
		}
	}
}

// BenchmarkFirstLookup is what the first lookup of a process costs: the
// index of both spec files and one entry parsed.
func BenchmarkFirstLookup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		tab := newTable()
		tab.scan("builtins.spec", spec)
		tab.scan("methods.spec", methodSpec)
		if tab.entry(tab.funcs["println"]).b == nil {
			b.Fatal("println not found")
		}
	}
}
