package tsutil

import (
	"runtime"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

// TestParsersReuse: a parser comes back from the pool usable after a
// parse that was cancelled halfway, on other input, and the pool keeps no
// more parsers than CPUs.
func TestParsersReuse(t *testing.T) {
	ps := NewParsers(sitter.NewLanguage(tsgo.Language()))
	src := goSource(t)
	p := ps.Get()
	stop := 0
	if tree := ParseChunked(p, src, nil, 0, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { stop++; return stop > 20 }}); tree != nil {
		tree.Close()
		t.Fatal("the parse was not cancelled")
	}
	ps.Put(p)
	q := ps.Get()
	if q != p {
		t.Fatal("the pool did not hand the parser back")
	}
	other := []byte("package x\n\nfunc f() {}\n")
	ref := newParser(t, tsgo.Language()).Parse(other, nil)
	defer ref.Close()
	got := Parse(q, other, nil)
	if got == nil || got.RootNode().ToSexp() != ref.RootNode().ToSexp() {
		t.Fatal("a reused parser resumed the cancelled parse")
	}
	got.Close()
	ps.Put(q)
	var many []*sitter.Parser
	for range 2*runtime.GOMAXPROCS(0) + 1 {
		many = append(many, ps.Get())
	}
	for _, p := range many {
		ps.Put(p)
	}
	if n := len(ps.free); n != runtime.GOMAXPROCS(0) {
		t.Errorf("the pool keeps %d parsers, want %d (one per CPU)", n, runtime.GOMAXPROCS(0))
	}
}
