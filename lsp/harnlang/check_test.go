package harnlang

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// harnStore returns a store of Harn documents as leia-lsp keeps them:
// Harn's check, and these features' incremental syntax.
func harnStore(t *testing.T) *cache.Store {
	t.Helper()
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return cache.NewStore(cache.Languages{Check: harnChecks, Syntax: map[string]cache.Syntax{Extension: f.Syntax()}})
}

// harnChecks is Harn's check as harn-check runs it.
var harnChecks = driver.Languages{frontends.Harn()}

// TestCheckFromDocumentTreeMatchesFreshCheck: the server checks a Harn
// document from the tree it reparsed incrementally; through random edits
// that result equals a fresh check of the document's text (the one
// harn-check runs), field for field.
func TestCheckFromDocumentTreeMatchesFreshCheck(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("..", "..", "examples", "harn", "compaction.harn"))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	uri := cache.PathToURI(abs)
	s := harnStore(t)
	d := s.Open(uri, "harn", 0, string(orig))
	if st, ok := d.Tree().(frontends.SitterTree); !ok || st.Sitter() == nil {
		t.Fatalf("the document's tree %T does not offer its tree-sitter tree to the check", d.Tree())
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	pieces := []string{" ", "\n", "x", "1", "}", "{", "(", ")", "let y = 2\n", "// c\n", "\"", ",", "match o {"}
	r := rand.New(rand.NewPCG(3, 4))
	text := orig
	for v := int32(1); v <= 120; v++ {
		a := r.IntN(len(text) + 1)
		b := min(len(text), a+r.IntN(6))
		ins := pieces[r.IntN(len(pieces))]
		for a < len(text) && !utf8.RuneStart(text[a]) {
			a++
		}
		for b < len(text) && !utf8.RuneStart(text[b]) {
			b++
		}
		b = max(a, b)
		if v%10 == 0 {
			a, b, ins = 0, len(text), string(orig)
		}
		lines := diagnostics.NewLineIndex(text)
		rng := &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(b)}
		var err error
		if d, err = s.Change(uri, v, []cache.Change{{Range: rng, Text: ins}}); err != nil {
			t.Fatal(err)
		}
		text = append(append(append([]byte{}, text[:a]...), ins...), text[b:]...)
		if !bytes.Equal(d.Text, text) {
			t.Fatalf("version %d: the store's text differs from the model", v)
		}
		got, err := d.CheckWith(read)
		if err != nil {
			t.Fatal(err)
		}
		want := harnChecks.Check(driver.Request{Path: abs, Source: text, Read: read})
		if got.Facts == nil {
			t.Fatalf("version %d: the document's check kept no facts for its features", v)
		}
		// Facts are keyed by syntax node: two checks never hold equal
		// ones. What is compared is what the check reports.
		got.Facts, want.Facts = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("version %d: check from the document's tree\n%+v\nwant (fresh)\n%+v\nof\n%s", v, got.Diagnostics, want.Diagnostics, text)
		}
	}
}

// TestHoverAfterIncrementalCheck: after an edit inside one function body
// is checked incrementally, a hover in another function's body, which
// that check left out, still shows the inferred type (from the earlier
// check's facts, at their offsets), and so does one in the edited body.
func TestHoverAfterIncrementalCheck(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	s := cache.NewStore(cache.Languages{Check: harnChecks, Syntax: map[string]cache.Syntax{Extension: f.Syntax()}})
	abs, err := filepath.Abs(filepath.Join("..", "testdata", "harn", "incremental_clean.harn"))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	uri := cache.PathToURI(abs)
	d := s.Open(uri, "harn", 0, string(orig))
	if _, err := d.CheckWith(read); err != nil {
		t.Fatal(err)
	}
	// Inside add's body: `let s = x + y` becomes `let s = x + y + 1`.
	at := bytes.Index(orig, []byte("x + y")) + len("x + y")
	lines := diagnostics.NewLineIndex(orig)
	pos := lines.UTF16Column(at)
	before := frontends.IncrementalChecks()
	if d, err = s.Change(uri, 1, []cache.Change{{Range: &cache.Range{Start: pos, End: pos}, Text: " + 1"}}); err != nil {
		t.Fatal(err)
	}
	res, err := d.CheckWith(read)
	if err != nil {
		t.Fatal(err)
	}
	edited, ok := res.Facts.(*harnchecker.EditedFacts)
	if !ok {
		t.Fatalf("the incremental check's facts are %T, want *harn.EditedFacts", res.Facts)
	}
	use := bytes.Index(d.Text, []byte("n * 2"))
	if facts, delta := edited.At(use, use+1); facts == edited.Facts || delta != -len(" + 1") {
		t.Errorf("twice's body: facts of this check (%v) with delta %d, want an earlier check's, %d bytes back", facts == edited.Facts, delta, len(" + 1"))
	}
	if frontends.IncrementalChecks() == before {
		t.Fatal("the edit inside add's body was not checked incrementally")
	}
	snap := features.Snapshot{Doc: features.Document{Path: abs, URI: uri, Version: 1, Text: d.Text, Tree: d.Tree(),
		Analysis: func() (driver.Result, error) { return d.CheckWith(read) }}, Workspace: fakeWorkspace{}}
	for _, needle := range []string{"n * 2", "d = n", "s = x", "t = \""} {
		off := bytes.Index(d.Text, []byte(needle))
		h, err := f.Hover(context.Background(), snap, off)
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || !strings.Contains(h.Markdown, "type `") {
			t.Errorf("hover on %q after the incremental check: %+v, want the inferred type", needle, h)
		}
	}
}

// TestIncrementalIndexEqualsFresh: through random edits, each reparsed
// incrementally as the server does, the name index brought up to date
// from the previous version's equals one built from scratch, field for
// field.
func TestIncrementalIndexEqualsFresh(t *testing.T) {
	inc, err := New()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// Two sequences of edits: the second (seed 25) makes a syntax error
	// that error recovery parses differently once the text around it is
	// reparsed, so a node with an error is never kept from the old tree.
	for _, tc := range []struct {
		name string
		seed uint64
	}{{"../testdata/harn/incremental.harn", 7}, {"../../examples/harn/compaction.harn", 7}, {"../../examples/harn/compaction.harn", 25}} {
		name := tc.name
		orig, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := orig
		tree := inc.syntax.Parse(nil, nil, text)
		inc.names.Index(tree.(*tsquery.Tree).T, text)
		pieces := []string{" ", "\n", "x", "1", "}", "{", "// c\n", "/// doc\n", "let y = 2\n", "fn g(a: int) -> int { return a }\n", "\""}
		r := rand.New(rand.NewPCG(tc.seed, 8))
		before := names.Rebuilds()
		for v := range 120 {
			a := r.IntN(len(text) + 1)
			b := min(len(text), a+r.IntN(6))
			ins := pieces[r.IntN(len(pieces))]
			if v%20 == 19 {
				a, b, ins = 0, len(text), string(orig)
			}
			lines := diagnostics.NewLineIndex(text)
			next, edits, err := cache.Apply(text, lines, []cache.Change{{Range: &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(b)}, Text: ins}})
			if err != nil {
				t.Fatal(err)
			}
			text = next
			tree = inc.syntax.Parse(tree, edits, text)
			st := tree.(*tsquery.Tree).T
			got := inc.names.Index(st, text)
			fresh.names.Forget()
			want := fresh.names.Index(st, text)
			if diff := got.Diff(want); diff != "" {
				t.Fatalf("%s (seed %d) version %d: the index brought up to date differs from a fresh one: %s\nof\n%s", name, tc.seed, v, diff, text)
			}
		}
		t.Logf("%s (seed %d): %d of 120 indexes brought up to date", name, tc.seed, names.Rebuilds()-before)
		// Most random edits leave a syntax error; the nodes around it are
		// queried again, the rest kept.
		if n := names.Rebuilds() - before; n < 90 {
			t.Errorf("%s (seed %d): %d of 120 indexes brought up to date from the previous one, want at least 90", name, tc.seed, n)
		}
	}
}

// indexDiff names the first field in which two indexes differ.

// TestHoverWithoutItsAnalysisChecksNothing: a hover whose document's
// analysis fails (the request was cancelled while it waited for the
// check, or the checker failed) shows no inferred type rather than
// checking the text a second time beside the document's own check; with
// no analysis at all (a document without a language check) the hover
// checks the text itself.
func TestHoverWithoutItsAnalysisChecksNothing(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "fn f(a: int) -> int {\n  const b = a + 1\n  return b\n}\n"
	at := strings.LastIndex(src, "b") // the use in `return b`
	for _, tc := range []struct {
		name     string
		analysis func() (driver.Result, error)
		typed    bool
	}{
		{"no analysis", nil, true},
		{"cancelled", func() (driver.Result, error) { return driver.Result{}, context.Canceled }, false},
		{"checker failed", func() (driver.Result, error) { return driver.Result{}, fmt.Errorf("checker panicked") }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshot(src)
			s.Doc.URI, s.Doc.Version, s.Doc.Analysis = "file:///p/"+tc.name+".harn", 1, tc.analysis
			h, err := f.Hover(context.Background(), s, at)
			if err != nil || h == nil {
				t.Fatalf("hover: %+v %v", h, err)
			}
			if typed := strings.Contains(h.Markdown, "\n\n"+typeLine(types.IntType)); typed != tc.typed {
				t.Errorf("hover %q: type line shown %v, want %v", h.Markdown, typed, tc.typed)
			}
		})
	}
}

// TestDefAtDescribesAsTheIndex: the declaration hover describes from the
// nodes around a name (names.Resolver.DefAt, for a name the checker's
// model resolved) is the one the whole file's index lists at that name,
// field for field but the scope, for every declaration of the Harn
// programs of the repository's fixtures and examples.
func TestDefAtDescribesAsTheIndex(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/harn/*.harn")
	examples, _ := filepath.Glob("../../examples/harn/*.harn")
	files = append(files, examples...)
	if len(files) < 4 {
		t.Fatalf("only %d Harn programs found", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tree := f.syntax.Parse(nil, nil, src).(*tsquery.Tree).T
		ix := f.names.Index(tree, src)
		if len(ix.Defs()) == 0 {
			t.Fatalf("%s: the index lists no declaration", name)
		}
		for _, want := range ix.Defs() {
			got := f.names.DefAt(tree.RootNode(), src, want.Span)
			if got == nil {
				t.Errorf("%s: no declaration at %s %v, want %+v", name, want.Name, want.Span, *want)
				continue
			}
			if got.Scope != -1 {
				t.Errorf("%s: %s has scope %d, want -1 (no index numbers it)", name, want.Name, got.Scope)
			}
			w := *want
			w.Scope = -1
			if !reflect.DeepEqual(*got, w) {
				t.Errorf("%s: declaration at %v: %+v, want %+v", name, want.Span, *got, w)
			}
		}
		// A span that names no declaration (a use, a keyword) gives none.
		for _, r := range ix.Refs() {
			if ix.DefAtName(r.Span) == nil {
				if d := f.names.DefAt(tree.RootNode(), src, r.Span); d != nil {
					t.Errorf("%s: use %s %v described as declaration %+v", name, r.Name, r.Span, *d)
				}
			}
		}
	}
}

// TestIncrementalIndexTypingEqualsFresh: typing in function bodies (a
// letter or digit added to a name or number on an indented line, then
// taken away again, a line added or removed), as an editor does, brings
// most versions' indexes up to date from the previous one's chunks, and
// each equals one built from scratch (scopes, declarations, uses, and
// what every use resolves to).
func TestIncrementalIndexTypingEqualsFresh(t *testing.T) {
	inc, err := New()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../examples/harn/*.harn")
	files = append(files, "../testdata/harn/incremental_focus.harn")
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tree := inc.syntax.Parse(nil, nil, text)
		inc.names.Index(tree.(*tsquery.Tree).T, text)
		before := names.Rebuilds()
		const versions = 100
		undo := -1 // the offset of the text the previous version added, to take away
		undoLen := 0
		for v := range versions {
			lines := diagnostics.NewLineIndex(text)
			var ch cache.Change
			if undo >= 0 {
				ch = cache.Change{Range: &cache.Range{Start: lines.UTF16Column(undo), End: lines.UTF16Column(undo + undoLen)}}
				undo = -1
			} else {
				// A place after a letter or digit on an indented line.
				var at int
				for {
					at = 1 + r.IntN(len(text)-1)
					ls := bytes.LastIndexByte(text[:at], '\n') + 1
					c := text[at-1]
					if (text[ls] == ' ' || text[ls] == '\t') && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
						break
					}
				}
				ins := string(rune('a' + r.IntN(26)))
				if r.IntN(4) == 0 {
					ins = "\n  let y = 2\n"
				}
				pos := lines.UTF16Column(at)
				ch = cache.Change{Range: &cache.Range{Start: pos, End: pos}, Text: ins}
				undo, undoLen = at, len(ins)
			}
			next, edits, err := cache.Apply(text, lines, []cache.Change{ch})
			if err != nil {
				t.Fatal(err)
			}
			text = next
			tree = inc.syntax.Parse(tree, edits, text)
			st := tree.(*tsquery.Tree).T
			got := inc.names.Index(st, text)
			fresh.names.Forget()
			if diff := got.Diff(fresh.names.Index(st, text)); diff != "" {
				t.Fatalf("%s version %d: the index brought up to date differs from a fresh one: %s", name, v, diff)
			}
		}
		if n := names.Rebuilds() - before; n < versions/2 {
			t.Errorf("%s: %d of %d indexes brought up to date from the previous one, want at least half", name, n, versions)
		} else {
			t.Logf("%s: %d of %d indexes brought up to date", name, n, versions)
		}
	}
}
