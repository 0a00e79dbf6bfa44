package tsquery

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"context"
	"fmt"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

// Go stands in for Harn and Leia; the queries use the same capture
// vocabulary as theirs.
var goLang = sitter.NewLanguage(tsgo.Language())

const highlights = `
(comment) @comment
(call_expression function: (selector_expression field: (field_identifier) @function.method.call))
(identifier) @variable
; A later pattern on the same node loses: "s" stays a variable.
((identifier) @variable.builtin (#eq? @variable.builtin "s"))
(interpreted_string_literal) @string
(raw_string_literal) @string
; A style unlike the string's, to show a nested node painting over its parent.
(escape_sequence) @string.regexp
(int_literal) @number
["func" "package"] @keyword
["(" ")"] @punctuation.bracket
`

const folds = `
[(block) (comment)] @fold
`

const goSrc = "package main\n\n/* a\n   b */\nfunc main() {\n\ts := \"x\\ny\"\n\tfmt.Println(s, 42, `r\n2`)\n}\n"

func render(src string, toks []features.Token) string {
	var out []string
	for _, t := range toks {
		s := fmt.Sprintf("%q %s", src[t.Span.Start:t.Span.End], t.Type)
		if len(t.Modifiers) > 0 {
			s += "+" + strings.Join(t.Modifiers, "+")
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func parse(t *testing.T, src string) *sitter.Tree {
	t.Helper()
	tree := NewSyntax(goLang).Parse(nil, nil, []byte(src))
	t.Cleanup(tree.Close)
	return tree.(*Tree).T
}

func TestTokens(t *testing.T) {
	q, err := NewQueries(goLang, highlights, folds)
	if err != nil {
		t.Fatal(err)
	}
	got := render(goSrc, q.Tokens(parse(t, goSrc), []byte(goSrc)))
	want := strings.Join([]string{
		`"package" keyword`, // "main" here is a package_identifier: no pattern
		`"/* a" comment`,    // a multi-line token is split per line
		`"   b */" comment`,
		`"func" keyword`,
		`"main" variable`,
		`"s" variable`, // the first pattern wins over the later variable.builtin
		`"\"x" string`,
		`"\\n" regexp`, // nested in the string, painted over it
		`"y\"" string`,
		`"fmt" variable`,
		`"Println" method`,
		`"s" variable`,
		`"42" number`,
		"\"`r\" string",
		"\"2`\" string",
	}, "\n")
	if got != want {
		t.Errorf("tokens:\n%s\nwant:\n%s", got, want)
	}
}

func TestFolds(t *testing.T) {
	q, err := NewQueries(goLang, "", folds)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range q.Folds(parse(t, goSrc), []byte(goSrc)) {
		got = append(got, fmt.Sprintf("%q %s", goSrc[f.Span.Start:min(f.Span.End, f.Span.Start+6)], f.Kind))
	}
	if want := []string{`"/* a\n " comment`, `"{\n\ts :" `}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("folds %q, want %q", got, want)
	}
}

func TestQueryErrorsNameTheFile(t *testing.T) {
	for _, tc := range []struct{ hl, fold, want string }{
		{"(nonexistent_node) @x", "", "highlights.scm:1:2: "},
		{"", "\n\n  (block @fold", "folds.scm:3:"},
	} {
		if _, err := NewQueries(goLang, tc.hl, tc.fold); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("NewQueries(%q, %q) err = %v, want prefix %q", tc.hl, tc.fold, err, tc.want)
		}
	}
}

// TestThroughTheStore: with the Syntax in the store's languages, a document's tokens and
// folds after incremental edits equal those of a fresh open of its text.
func TestThroughTheStore(t *testing.T) {
	langs := cache.Languages{Check: driver.Languages{{Name: "Go test", Extension: ".gotest"}},
		Syntax: map[string]cache.Syntax{".gotest": NewSyntax(goLang)}}
	q, err := NewQueries(goLang, highlights, folds)
	if err != nil {
		t.Fatal(err)
	}
	f := Features{Queries: q}
	s := cache.NewStore(langs)
	const uri = "file:///w/x.gotest"
	s.Open(uri, "", 1, goSrc)
	pos := func(l, c int) diagnostics.Position { return diagnostics.Position{Line: l, Column: c} }
	d, err := s.Change(uri, 2, []cache.Change{
		{Range: &cache.Range{Start: pos(5, 1), End: pos(5, 2)}, Text: "total"},            // rename s
		{Range: &cache.Range{Start: pos(2, 0), End: pos(3, 7)}, Text: "// one line"},      // comment no longer folds
		{Range: &cache.Range{Start: pos(6, 0), End: pos(6, 0)}, Text: "\tif x { y() }\n"}, // a new block
	})
	if err != nil {
		t.Fatal(err)
	}
	fresh := cache.NewStore(langs).Open(uri, "", 2, string(d.Text))
	snap := func(doc *cache.Document) features.Snapshot {
		return features.Snapshot{Doc: features.Document{Text: doc.Text, Tree: doc.Tree()}}
	}
	ctx := context.Background()
	gt, _ := f.SemanticTokens(ctx, snap(d))
	wt, _ := f.SemanticTokens(ctx, snap(fresh))
	if got, want := render(string(d.Text), gt), render(string(fresh.Text), wt); got != want || !strings.Contains(got, `"total" variable`) {
		t.Errorf("tokens after edits:\n%s\nwant:\n%s", got, want)
	}
	gf, _ := f.FoldingRanges(ctx, snap(d))
	wf, _ := f.FoldingRanges(ctx, snap(fresh))
	if fmt.Sprint(gf) != fmt.Sprint(wf) || len(gf) != 2 {
		t.Errorf("folds after edits %v, want %v (two blocks)", gf, wf)
	}
	// Without a tree the features answer nothing rather than fail.
	if toks, err := f.SemanticTokens(ctx, features.Snapshot{}); toks != nil || err != nil {
		t.Errorf("no tree: %v, %v", toks, err)
	}
}

// TestNestingAfterEdits applies random edits to a Go file through Parse
// with the previous tree, as the document store does, and compares the
// nesting measured child by child from the previous version's with a
// walk of the whole new tree, after every edit.
func TestNestingAfterEdits(t *testing.T) {
	var b strings.Builder
	b.WriteString("package main\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "func f%d(a int) int {\n", i)
		for range i % 5 {
			b.WriteString("\tif a > 0 { for { a = (a - (1 + a)) } }\n")
		}
		b.WriteString("\treturn a\n}\n\n")
	}
	orig := []byte(b.String())
	syn := NewSyntax(goLang)
	text := orig
	tree := syn.Parse(nil, nil, text)
	pieces := []string{"{", "}", "(", ")", "x", "\n", "if a { if a { if a { b() } } }\n", "func g() { ((((a)))) }\n", "/*", "*/", ""}
	r := rand.New(rand.NewPCG(3, 4))
	before := nestReused.Load()
	for v := range 300 {
		a := r.IntN(len(text) + 1)
		e := min(len(text), a+r.IntN(12))
		ins := pieces[r.IntN(len(pieces))]
		if v%50 == 49 {
			a, e, ins = 0, len(text), string(orig)
		}
		lines := diagnostics.NewLineIndex(text)
		next, edits, err := cache.Apply(text, lines, []cache.Change{{Range: &cache.Range{Start: lines.UTF16Column(a), End: lines.UTF16Column(e)}, Text: ins}})
		if err != nil {
			t.Fatal(err)
		}
		text = next
		tree = syn.Parse(tree, edits, text)
		tt := tree.(*Tree)
		recs := tsflat.Walk(tt.T.RootNode(), nil)
		want := tsflat.Nesting(recs, tt.chains)
		if v%3 == 2 {
			// Past a limit, where it is crossed comes from a walk of the
			// whole tree.
			small := max(2, want.Depth-1)
			a, _, _, _ := tsflat.Crossing(recs, tt.chains, small, 1000)
			at, depth, limit, over := tt.NestingCrossing(small, 1000)
			if !over || depth != want.Depth || limit != small || at != int(recs[a].StartByte) {
				t.Fatalf("version %d: limit %d: at %d depth %d limit %d over %v, want at %d depth %d", v, small, at, depth, limit, over, recs[a].StartByte, want.Depth)
			}
			continue
		}
		if _, _, _, over := tt.NestingCrossing(1000, 1000); over {
			t.Fatalf("version %d: over the limits", v)
		}
		if tt.nest.Depth != want.Depth || tt.nest.Chain != want.Chain {
			t.Fatalf("version %d: depth %d chain %d, want %d %d, of\n%s", v, tt.nest.Depth, tt.nest.Chain, want.Depth, want.Chain, text)
		}
	}
	if nestReused.Load() == before {
		t.Error("no top-level child's nesting was reused")
	}
}

// TestNestingReusesUnreachedChildren checks that measuring the nesting
// of a reparsed tree walks only the top-level children the edit reached:
// one for an edit in a body, the inserted ones (and at most reuseWindow
// more) for statements pasted, none that a deletion left.
func TestNestingReusesUnreachedChildren(t *testing.T) {
	var b strings.Builder
	b.WriteString("package main\n\n")
	for i := range 100 {
		fmt.Fprintf(&b, "func f%d(a int) int {\n\treturn a + %d\n}\n\n", i, i)
	}
	orig := []byte(b.String())
	mid := strings.Index(string(orig), "func f50(")
	pasted := strings.Repeat("func g() { if a { b() } }\n", 10)
	for _, c := range []struct {
		name         string
		at, end      int
		ins          string
		walkedAtMost int
	}{
		{"edit in a body", mid + len("func f50(a int) int {\n\treturn a + "), mid + len("func f50(a int) int {\n\treturn a + "), "7", 1},
		{"statements pasted", mid, mid, pasted, 10 + reuseWindow},
		{"statements deleted", mid, strings.Index(string(orig), "func f60("), "", reuseWindow},
	} {
		syn := NewSyntax(goLang)
		old := syn.Parse(nil, nil, orig).(*Tree)
		if _, _, _, over := old.NestingCrossing(1000, 1000); over {
			t.Fatal("over the limits")
		}
		lines := diagnostics.NewLineIndex(orig)
		text, edits, err := cache.Apply(orig, lines, []cache.Change{{Range: &cache.Range{Start: lines.UTF16Column(c.at), End: lines.UTF16Column(c.end)}, Text: c.ins}})
		if err != nil {
			t.Fatal(err)
		}
		tree := syn.Parse(old, edits, text).(*Tree)
		before := nestReused.Load()
		if _, _, _, over := tree.NestingCrossing(1000, 1000); over {
			t.Fatal("over the limits")
		}
		kids := int64(tree.T.RootNode().ChildCount())
		if walked := kids - (nestReused.Load() - before); walked > int64(c.walkedAtMost) || walked < 0 {
			t.Errorf("%s: %d of %d top-level children walked, want at most %d", c.name, walked, kids, c.walkedAtMost)
		}
		want := tsflat.Nesting(tsflat.Walk(tree.T.RootNode(), nil), tree.chains)
		if tree.nest.Depth != want.Depth || tree.nest.Chain != want.Chain {
			t.Errorf("%s: depth %d chain %d, want %d %d", c.name, tree.nest.Depth, tree.nest.Chain, want.Depth, want.Chain)
		}
		tree.Close()
		old.Close()
	}
}

// TestUnmeasuredVersionsAreNotKept: a tree reparsed from one never
// measured (no nesting check ran on it: typing outran the checks) keeps
// neither that tree nor the ones before it reachable, only their
// measures' holder; and the chain resumes reusing measures once a
// version is measured.
func TestUnmeasuredVersionsAreNotKept(t *testing.T) {
	syn := NewSyntax(goLang)
	text := []byte("package main\n\nfunc f(a int) int {\n\treturn a\n}\n\nfunc g() {}\n")
	var collected atomic.Int32
	var tree *Tree
	var closers []*sitter.Tree
	for v := range 6 {
		var edits []cache.Edit
		if tree != nil {
			lines := diagnostics.NewLineIndex(text)
			var err error
			at := strings.Index(string(text), "return a") + len("return a")
			text, edits, err = cache.Apply(text, lines, []cache.Change{{Range: &cache.Range{Start: lines.UTF16Column(at), End: lines.UTF16Column(at)}, Text: "+1"}})
			if err != nil {
				t.Fatal(err)
			}
		}
		var prev cache.Tree
		if tree != nil {
			prev = tree
		}
		tree = syn.Parse(prev, edits, text).(*Tree)
		closers = append(closers, tree.T)
		if v < 5 {
			runtime.AddCleanup(tree, func(int) { collected.Add(1) }, v)
		}
	}
	for range 5 {
		runtime.GC()
	}
	time.Sleep(10 * time.Millisecond)
	runtime.GC()
	if n := collected.Load(); n < 4 {
		t.Errorf("%d of the 5 earlier unmeasured trees were collected, want at least 4 (only the latest's measures holder is kept)", n)
	}
	if _, _, _, over := tree.NestingCrossing(1000, 1000); over {
		t.Fatal("over the limits")
	}
	for _, c := range closers {
		c.Close()
	}
}
