package frontends

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/driver"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	leiabinding "github.com/harnlang/harn-check/grammar/leia/binding"
)

// harnPieces are inserted by the random edits: Harn tokens, brackets and
// fragments that make and mend syntax errors, and non-ASCII text.
var harnPieces = []string{
	"fn f() {", "}", "\n", "let x = 1", "if x {", "return ", "\"s\"", "// c", "match o {", "(", ")",
	"{", "[", "]", ",", ":", " ", "42", "é", "𝄞", "llm.evaluate(", "choice(\"q\", {a: \"b\"})", "import {f} from \"./x\"\n",
	"type T = \"a\" | \"b\"\n", "struct S { a: int }", "=>", "->", "x.y", "pub ",
}

// point is the tree-sitter position of byte offset off of src.
func point(src []byte, off int) sitter.Point {
	line := bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint(line), Column: uint(col)}
}

// TestHarnCheckTreeMatchesFreshCheck: through random edits, each applied
// to the previous tree and reparsed incrementally as the language server
// does, checking with the reused tree gives exactly the result of a fresh
// check of the same text (diagnostics, related sources, dependencies,
// manifest), with imports served by a reader and from disk.
func TestHarnCheckTreeMatchesFreshCheck(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "harn")
	path := filepath.ToSlash(filepath.Join(dir, "compaction.harn"))
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := orig
	lang := Harn()
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	tree := harnbinding.ParseTree(text, nil)
	defer func() { tree.Close() }()
	r := rand.New(rand.NewPCG(9, 25))
	compared, withErrors := 0, 0
	for i := range 400 {
		a := r.IntN(len(text) + 1)
		b := min(len(text), a+r.IntN(12))
		var ins strings.Builder
		for range r.IntN(3) {
			ins.WriteString(harnPieces[r.IntN(len(harnPieces))])
		}
		if r.IntN(2) == 0 {
			// A harmless edit: whitespace or a comment.
			b = a
			ins.Reset()
			ins.WriteString([]string{" ", "\n", "\n\n", "// note\n"}[r.IntN(4)])
		}
		if i%10 == 9 {
			// Now and then the editor replaces the whole text, back to
			// the clean file, so that clean and broken versions mix.
			a, b = 0, len(text)
			ins.Reset()
			ins.Write(orig)
		}
		next := append(append(append([]byte{}, text[:a]...), ins.String()...), text[b:]...)
		if tree != nil {
			tree.Edit(&sitter.InputEdit{
				StartByte: uint(a), OldEndByte: uint(b), NewEndByte: uint(a + ins.Len()),
				StartPosition: point(text, a), OldEndPosition: point(text, b), NewEndPosition: point(next, a+ins.Len()),
			})
		}
		old := tree
		tree = harnbinding.ParseTree(next, old)
		old.Close()
		text = next
		if tree == nil {
			tree = harnbinding.ParseTree(text, nil) // the parser gave up; start over
			continue
		}
		var got, want driver.Result
		if i%2 == 0 {
			got, want = lang.Check(driver.Request{Path: path, Source: text, Tree: tree, Read: read}), lang.Check(driver.Request{Path: path, Source: text, Read: read})
		} else {
			got, want = lang.Check(driver.Request{Path: path, Source: text, Tree: tree}), lang.Check(driver.Request{Path: path, Source: text})
		}
		// Facts are keyed by syntax node: two checks never hold equal
		// ones. What is compared is what the check reports.
		got.Facts, want.Facts = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("edit %d: check with the incremental tree\n%+v\ndiffers from a fresh check\n%+v\nof\n%s", i, got, want, text)
		}
		compared++
		for _, d := range got.Diagnostics {
			if strings.HasPrefix(d.Code, "HARN-PAR") || strings.HasPrefix(d.Code, "HARN-SYN") {
				withErrors++
				break
			}
		}
	}
	// Both kinds of version must have been seen for the test to mean
	// anything.
	if withErrors < 50 || compared-withErrors < 50 {
		t.Fatalf("of %d versions compared, %d had syntax errors: too few of one kind", compared, withErrors)
	}
}

// TestHarnCheckTreeUsesOnlyHarnTrees: a Harn tree is what the check
// reports on (one parsed from other text of the same length shows that
// text's syntax error); anything else, a Leia tree or a value of another
// type, is ignored and the text is parsed.
func TestHarnCheckTreeUsesOnlyHarnTrees(t *testing.T) {
	src := []byte("let x = 1\nlog(x)\n")
	other := []byte("let x = \nlog(x)\n\n")
	harnOther := harnbinding.ParseTree(other, nil)
	defer harnOther.Close()
	leia := leiabinding.ParseTree(src, nil)
	defer leia.Close()
	fresh := Harn().Check(driver.Request{Path: "a.harn", Source: src})
	// Facts are keyed by syntax node, so two checks never hold equal
	// ones; the comparison is of what the check reports.
	fresh.Facts = nil
	for _, tc := range []struct {
		name     string
		tree     any
		wantSame bool
	}{
		{"Harn tree of other text", harnOther, false},
		{"Leia tree", leia, true},
		{"not a tree", "let x = 1", true},
		{"nil tree", (*sitter.Tree)(nil), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Harn().Check(driver.Request{Path: "a.harn", Source: src, Tree: tc.tree})
			if got.Facts == nil {
				t.Error("no facts")
			}
			got.Facts = nil
			if same := reflect.DeepEqual(got, fresh); same != tc.wantSame {
				t.Errorf("same as a fresh check: %v, want %v\n%+v\n%+v", same, tc.wantSame, got.Diagnostics, fresh.Diagnostics)
			}
		})
	}
}
