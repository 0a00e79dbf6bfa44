package names

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	harngrammar "github.com/harnlang/harn-check/grammar/harn"
	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// TestVisibleAndComments runs the resolver with Harn's locals.scm alone:
// what is visible at a point (innermost first, later declarations not yet,
// hoisted functions always) and the comments above a declaration.
func TestVisibleAndComments(t *testing.T) {
	r, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true},
		Doc: func(decl *sitter.Node, src []byte) string {
			return CommentsAbove(decl, src, []string{"line_comment", "block_comment"}, false)
		}})
	if err != nil {
		t.Fatal(err)
	}
	src := "// Plain comment.\n// Second line.\nfn a(p) {\n  let x = 1\n  HERE\n  let y = 2\n}\n\n/** Block\n * doc. */\nfn later() {}\n"
	tree := binding.ParseTree([]byte(src), nil)
	defer tree.Close()
	ix := r.Index(tree, []byte(src))
	var got []string
	for _, d := range ix.Visible(strings.Index(src, "HERE")) {
		got = append(got, d.Name)
	}
	if strings.Join(got, ",") != "x,p,a,later" {
		t.Errorf("visible at HERE: %v, want x,p,a,later (innermost first)", got)
	}
	for _, tc := range []struct{ name, doc string }{{"a", "Plain comment.\nSecond line."}, {"later", "Block\ndoc."}} {
		defs := ix.Named(tc.name)
		if len(defs) != 1 || defs[0].Doc != tc.doc {
			t.Errorf("%s: defs %+v, want doc %q", tc.name, defs, tc.doc)
		}
	}
	if ix2 := r.Index(tree, []byte(src)); ix2 != ix {
		t.Error("the index of the same tree and text was built twice")
	}
}

// TestCacheKeepsLatestVersion indexes successive versions of one text and
// a second, different text: the cache keeps one index per document, the
// latest version's, so an edited document's earlier trees are not kept
// alive.
func TestCacheKeepsLatestVersion(t *testing.T) {
	r, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true}})
	if err != nil {
		t.Fatal(err)
	}
	other := []byte("fn other_document(q) {\n  return q\n}\n")
	otherTree := binding.ParseTree(other, nil)
	defer otherTree.Close()
	r.Index(otherTree, other)
	src := []byte(strings.Repeat("fn f(p) {\n  let x = p\n  return x\n}\n\n", 20))
	var trees []*sitter.Tree
	for v := range 5 {
		src = append([]byte{}, src...)
		src[len("fn f(p) {\n  let x = p")-1] = byte('a' + v) // the parameter's use, renamed
		tree := binding.ParseTree(src, nil)
		trees = append(trees, tree)
		r.Index(tree, src)
	}
	defer func() {
		for _, tr := range trees {
			tr.Close()
		}
	}()
	if len(r.cache) != 2 {
		t.Fatalf("%d indexes cached, want 2 (one per document)", len(r.cache))
	}
	if r.cache[1].tree != trees[len(trees)-1] || r.cache[0].tree != otherTree {
		t.Error("the cache does not hold the other document and the latest version")
	}
}

// doneAfter is a context that is done from its n-th look on.
type doneAfter struct {
	context.Context
	n, looks int
}

func (c *doneAfter) Err() error {
	if c.looks++; c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// TestIndexContextStops: a request cancelled before or while its index is
// built gets none, and nothing is cached; the next request builds it.
func TestIndexContextStops(t *testing.T) {
	src := []byte(strings.Repeat("fn f(p) {\n  let x = p\n  return x\n}\n\n", cancelEvery))
	tree := binding.ParseTree(src, nil)
	defer tree.Close()
	for _, tc := range []struct {
		name string
		ctx  *doneAfter
	}{
		{"cancelled before", &doneAfter{Context: context.Background(), n: 1}},
		{"cancelled while building", &doneAfter{Context: context.Background(), n: 2}},
	} {
		r, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true}})
		if err != nil {
			t.Fatal(err)
		}
		if ix := r.IndexContext(tc.ctx, tree, src); ix != nil {
			t.Errorf("%s: got an index", tc.name)
		}
		// One look per cancelEvery matches, and one after building: a
		// collect that went on would have looked more often.
		if tc.ctx.looks > tc.ctx.n+1 {
			t.Errorf("%s: the context was looked at %d times after it was done at look %d", tc.name, tc.ctx.looks, tc.ctx.n)
		}
		if len(r.cache) != 0 {
			t.Errorf("%s: %d indexes cached", tc.name, len(r.cache))
		}
		if ix := r.IndexContext(context.Background(), tree, src); ix == nil || len(ix.Named("x")) != cancelEvery {
			t.Errorf("%s: the next request's index is incomplete", tc.name)
		}
	}
}

// TestIndexSharesUneditedChunks: the index of a text edited inside one
// top-level node shares the chunks of the others with the previous
// version's (those after the edit moved by its length), equals one built
// afresh, and a file that starts with blank lines (whose root node starts
// after them) has its top-level declarations in the file's scope.
func TestIndexSharesUneditedChunks(t *testing.T) {
	r, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true}})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(binding.Language(), Options{Locals: harngrammar.LocalsQuery(), Hoisted: map[string]bool{"function": true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, lead := range []string{"", "\n\n  \n"} {
		var b strings.Builder
		b.WriteString(lead)
		for i := range 30 {
			fmt.Fprintf(&b, "fn f%d(p) {\n  let x = p + %d\n  return x\n}\n\n", i, i)
		}
		src := []byte(b.String())
		tree := binding.ParseTree(src, nil)
		ix := r.Index(tree, src)
		if len(ix.Declared(0)) != 30 {
			t.Fatalf("lead %q: %d declarations in the file's scope, want 30", lead, len(ix.Declared(0)))
		}
		// Type a digit into the 15th function's body.
		at := strings.Index(string(src), "p + 14") + len("p + 1")
		next := append(append(append([]byte{}, src[:at]...), '9'), src[at:]...)
		nextTree := binding.ParseTree(next, nil)
		before := Rebuilds()
		got := r.Index(nextTree, next)
		if Rebuilds() != before+1 {
			t.Fatalf("lead %q: the index of the edited text was not brought up to date from the previous one", lead)
		}
		fresh.Forget()
		if diff := got.Diff(fresh.Index(nextTree, next)); diff != "" {
			t.Errorf("lead %q: %s", lead, diff)
		}
		if len(got.chunks) != len(ix.chunks) {
			t.Fatalf("lead %q: %d chunks, want %d", lead, len(got.chunks), len(ix.chunks))
		}
		shared := 0
		for i := range got.chunks {
			if got.chunks[i] == ix.chunks[i] {
				shared++
			}
		}
		if shared != len(ix.chunks)-2 {
			t.Errorf("lead %q: %d of %d chunks shared with the previous version, want all but the edited one and the next (its doc comment could have changed)", lead, shared, len(ix.chunks))
		}
		// The declarations after the edit moved by one byte.
		for _, name := range []string{"f20", "x"} {
			for _, d := range got.Named(name) {
				if string(next[d.Span.Start:d.Span.End]) != name {
					t.Errorf("lead %q: %s at %v reads %q", lead, name, d.Span, next[d.Span.Start:d.Span.End])
				}
			}
		}
		tree.Close()
		nextTree.Close()
	}
}
