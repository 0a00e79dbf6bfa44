package leialang

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// TestIncrementalIndexEqualsFresh: through random edits of Leia programs,
// each reparsed incrementally as the server does (top-level statements
// reused by the reparse), the name index brought up to date from the
// previous version's equals one built from scratch, field for field.
func TestIncrementalIndexEqualsFresh(t *testing.T) {
	inc, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	fresh, _, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../testdata/leia/incremental.leia", "../../examples/leia/support_agent.leia"} {
		orig, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := orig
		tree := syn.Parse(nil, nil, text)
		inc.names.Index(tree.(*tsquery.Tree).T, text)
		pieces := []string{" ", "\n", "x", "1", "}", "{", "// c\n", "y := 2\n", "func g(a) { return a }\n", "\"", "print(y)\n"}
		r := rand.New(rand.NewPCG(7, 9))
		before := names.Rebuilds()
		for v := range 150 {
			a := r.IntN(len(text) + 1)
			b := min(len(text), a+r.IntN(6))
			ins := pieces[r.IntN(len(pieces))]
			if v%25 == 24 {
				a, b, ins = 0, len(text), string(orig)
			}
			lines := diagnostics.NewLineIndex(text)
			next, edits, err := cache.Apply(text, lines, []cache.Change{{Range: &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(b)}, Text: ins}})
			if err != nil {
				t.Fatal(err)
			}
			text = next
			tree = syn.Parse(tree, edits, text)
			st := tree.(*tsquery.Tree).T
			got := inc.names.Index(st, text)
			fresh.names.Forget()
			want := fresh.names.Index(st, text)
			if diff := got.Diff(want); diff != "" {
				t.Fatalf("%s version %d (edit at %d): the index brought up to date differs from a fresh one: %s", name, v, a, diff)
			}
		}
		t.Logf("%s: %d of 150 indexes brought up to date", name, names.Rebuilds()-before)
		if names.Rebuilds() == before {
			t.Errorf("%s: no index was brought up to date from the previous one", name)
		}
	}
}

// TestDefAtDescribesAsTheIndex: the declaration hover describes from the
// nodes around a name the checker's model resolved (names.Resolver.DefAt)
// is the one the whole file's index lists at that name, field for field
// but the scope, for every declaration of the Leia programs of the
// repository's fixtures, clean programs and examples; a use names none.
func TestDefAtDescribesAsTheIndex(t *testing.T) {
	f, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/leia/*.leia")
	for _, g := range []string{"../../examples/leia/*.leia", "../../checker/leia/testdata/clean/*.leia"} {
		more, _ := filepath.Glob(g)
		files = append(files, more...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d Leia programs found", len(files))
	}
	kinds := map[string]bool{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tree := syn.Parse(nil, nil, src).(*tsquery.Tree).T
		ix := f.names.Index(tree, src)
		for _, want := range ix.Defs() {
			kinds[want.Kind] = true
			got := f.names.DefAt(tree.RootNode(), src, want.Span)
			if got == nil {
				t.Errorf("%s: no declaration at %s %v, want %+v", name, want.Name, want.Span, *want)
				continue
			}
			w := *want
			w.Scope = -1
			if !reflect.DeepEqual(*got, w) {
				t.Errorf("%s: declaration at %v: %+v, want %+v", name, want.Span, *got, w)
			}
		}
		for _, r := range ix.Refs() {
			if ix.DefAtName(r.Span) == nil {
				if d := f.names.DefAt(tree.RootNode(), src, r.Span); d != nil {
					t.Errorf("%s: use %s %v described as declaration %+v", name, r.Name, r.Span, *d)
				}
			}
		}
		tree.Close()
	}
	for _, k := range []string{"function", "parameter", "var", "constant"} {
		if !kinds[k] {
			t.Errorf("no declaration of kind %s in the programs: the test covers less than it says", k)
		}
	}
}
