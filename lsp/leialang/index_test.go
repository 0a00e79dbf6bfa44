package leialang

import (
	"math/rand/v2"
	"os"
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
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s version %d (edit at %d): the index brought up to date differs from a fresh one: %s", name, v, a, got.Diff(want))
			}
		}
		t.Logf("%s: %d of 150 indexes brought up to date", name, names.Rebuilds()-before)
		if names.Rebuilds() == before {
			t.Errorf("%s: no index was brought up to date from the previous one", name)
		}
	}
}
