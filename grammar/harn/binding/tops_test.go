package binding

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/syntaxdiag"
	"github.com/harnlang/harn-check/grammar/tsflat"
)

// TestLoweredTopsMatchesBlankedText lowers a choice of the top-level items
// of the example and test programs (every other one, then every third),
// the bodies of some kept functions and pipelines hollowed, and compares
// the result with the lowering of the text with everything left out
// blanked to spaces.
func TestLoweredTopsMatchesBlankedText(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		filepath.Join("..", "..", "..", "examples", "harn", "*.harn"),
		filepath.Join("..", "testdata", "programs", "*.harn"),
		filepath.Join("..", "..", "..", "lsp", "testdata", "harn", "*.harn"),
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("only %d programs", len(files))
	}
	compared := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree := ParseTree(src, nil)
		root := tree.RootNode()
		if root.HasError() {
			tree.Close()
			continue
		}
		for _, every := range []int{2, 3} {
			blank := bytes.Clone(src)
			clear := func(a, b uint) {
				for i := a; i < b; i++ {
					if blank[i] != '\n' {
						blank[i] = ' '
					}
				}
			}
			var tops []*sitter.Node
			var hollow [][2]int
			kids := tsflat.NamedChildren(root, nil)
			for i := range kids {
				n := &kids[i]
				if i%every == 1 {
					clear(n.StartByte(), n.EndByte())
					continue
				}
				tops = append(tops, n)
				switch n.Kind() {
				case "function_declaration", "pipeline_declaration":
					if body := n.ChildByFieldName("body"); body != nil && len(tops)%2 == 0 {
						hollow = append(hollow, [2]int{int(body.StartByte()), int(body.EndByte())})
						clear(body.StartByte()+1, body.EndByte()-1)
					}
				}
			}
			got, ok := LoweredTops(path, src, root, tops, hollow, Options{})
			if !ok {
				t.Fatalf("%s: not lowered", path)
			}
			want, _ := Parse(path, blank)
			if a, b := ast.Dump(want), ast.Dump(got); a != b {
				t.Errorf("%s (every %d): lowered items differ from the blanked text's:\n%s\nwant\n%s", path, every, b, a)
			}
			if len(hollow) > 0 {
				compared++
			}
		}
		tree.Close()
	}
	if compared == 0 {
		t.Error("no program had a hollowed body")
	}
}

// TestCleanMatchesDiagnose compares syntaxdiag.Clean on every top-level
// item of the example and test programs, as written and with a character
// the lexer rejects put into the item, with whether the whole file's
// syntax diagnostics fall inside the item.
func TestCleanMatchesDiagnose(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		filepath.Join("..", "..", "..", "examples", "harn", "*.harn"),
		filepath.Join("..", "testdata", "programs", "*.harn"),
		filepath.Join("..", "..", "..", "lsp", "testdata", "harn", "*.harn"),
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	dirty := 0
	for _, path := range files {
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, mutate := range []bool{false, true} {
			src := orig
			if mutate {
				// A stray `§` in code, after the first `{` of the file's
				// last function: blanked before parsing, so the tree has
				// no error, and reported by the lexical scan.
				at := bytes.LastIndex(src, []byte("\nfn "))
				if at < 0 {
					continue
				}
				at += bytes.IndexByte(src[at:], '{') + 1
				src = append(append(append([]byte{}, src[:at]...), "§"...), src[at:]...)
			}
			tree := ParseTree(src, nil)
			root := tree.RootNode()
			if root.HasError() {
				tree.Close()
				continue
			}
			_, diags := Parse(path, src)
			kids := tsflat.NamedChildren(root, nil)
			for i := range kids {
				start, end := int(kids[i].StartByte()), int(kids[i].EndByte())
				inside := false
				for _, d := range diags {
					if d.Span.Start >= start && d.Span.Start < end {
						inside = true
					}
				}
				if got := syntaxdiag.Clean(src, start, end); got == inside {
					t.Errorf("%s (mutated %v): item at %d: Clean %v, diagnostics inside: %v", path, mutate, start, got, inside)
				}
				if inside {
					dirty++
				}
			}
			tree.Close()
		}
	}
	if dirty == 0 {
		t.Error("no item had a syntax diagnostic: the mutation did not take")
	}
}
