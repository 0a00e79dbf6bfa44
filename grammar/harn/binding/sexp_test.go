package binding

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/tsflat"
)

// unexpected matches the character after UNEXPECTED, which the Go printer
// takes from the source and ts_node_string from the lexer's state.
var unexpected = regexp.MustCompile(`\(UNEXPECTED ('(\\.|[^'])'|INVALID|-?[0-9]+)`)

// TestSexpMatchesTreeSitter: the Go S-expression printer gives
// tree-sitter's ts_node_string text (up to the character after
// UNEXPECTED), on every corpus and example file and on random mutations of
// them, so that ERROR, MISSING and UNEXPECTED nodes are covered.
func TestSexpMatchesTreeSitter(t *testing.T) {
	var files []string
	for _, glob := range []string{"../test/corpus/*.txt", "../../../examples/*/*.harn", "../../../checker/harn/testdata/*/*.harn"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d sample files found", len(files))
	}
	r := rand.New(rand.NewPCG(1, 2))
	compared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		variants := [][]byte{src}
		for range 5 {
			b := []byte(string(src))
			for range 1 + r.IntN(4) {
				if len(b) == 0 {
					break
				}
				i := r.IntN(len(b))
				switch r.IntN(3) {
				case 0:
					b = append(b[:i], b[min(len(b), i+1+r.IntN(8)):]...)
				case 1:
					b = append(b[:i], append([]byte(string("{}()[]\"'@;\x01é"[r.IntN(13)])), b[i:]...)...)
				default:
					b[i] = byte(r.IntN(128))
				}
			}
			variants = append(variants, b)
		}
		for _, v := range variants {
			tree := ParseTree(v, nil)
			if tree == nil {
				continue
			}
			want := unexpected.ReplaceAllString(tree.RootNode().ToSexp(), "(UNEXPECTED _")
			got := unexpected.ReplaceAllString(tsflat.Sexp(tsflat.Walk(tree.RootNode(), nil), grammar.Names(), v), "(UNEXPECTED _")
			tree.Close()
			if got != want {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				lo := max(0, i-150)
				t.Fatalf("%s: Sexp differs from ts_node_string at byte %d\n got ...%s\nwant ...%s", f, i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
			}
			compared++
		}
	}
	t.Logf("%d trees compared", compared)
}

// TestSexpPrintsAnyDepth: nesting that overflows the C printer's stack
// prints, with every parenthesis balanced.
func TestSexpPrintsAnyDepth(t *testing.T) {
	const n = 100000
	src := []byte("fn main() {\n  const x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n}\n")
	tree := ParseTree(src, nil)
	if tree == nil {
		t.Fatal("no tree")
	}
	defer tree.Close()
	got := Sexp(tree, src)
	if !strings.HasPrefix(got, "(source_file (function_declaration") || strings.Count(got, "(") != strings.Count(got, ")") ||
		strings.Count(got, "(parenthesized_expression") != n {
		t.Errorf("S-expression of %d nested parentheses is wrong (%d bytes)", n, len(got))
	}
}

// TestNestingLimit: a tree deeper than the limit is not lowered; the one
// diagnostic is HARN-LIM-002 at the first node past the limit, and a tree
// at the limit lowers normally.
func TestNestingLimit(t *testing.T) {
	src := []byte("fn main() {\n  const x = " + strings.Repeat("(", 50) + "1" + strings.Repeat(")", 50) + "\n}\n")
	file, diags := ParseWith("deep.harn", src, Options{MaxNesting: 20})
	if len(diags) != 1 || diags[0].Code != "HARN-LIM-002" || len(file.Items) != 0 || len(file.Errors) != 1 {
		t.Fatalf("over the limit: %d items, diagnostics %+v", len(file.Items), diags)
	}
	if at := diags[0].Span.Start; src[at] != '(' || !strings.Contains(diags[0].Message, "more than the limit of 20") {
		t.Errorf("reported at %d (%q): %s", at, src[at:at+1], diags[0].Message)
	}
	file, diags = ParseWith("deep.harn", src, Options{MaxNesting: 1000})
	if len(diags) != 0 || len(file.Items) != 1 {
		t.Errorf("under the limit: %d items, diagnostics %+v", len(file.Items), diags)
	}
}
