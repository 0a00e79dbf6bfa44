package binding

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/grammar/tsflat"
)

// TestChildSpansOfHarnTopLevel compares tsflat.ChildSpans of Harn files'
// roots (read from the subtrees of the balanced repetition of their
// top-level items, when no alias is involved) with go-tree-sitter's
// children, one by one, in the repository's examples and a broken file.
func TestChildSpansOfHarnTopLevel(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/harn/*.harn")
	if len(files) < 3 {
		t.Fatalf("only %d Harn examples found", len(files))
	}
	srcs := [][]byte{[]byte("fn f( {\n}\nlet x = [1, \npipeline p() { log(\"a) }\n")}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	for _, src := range srcs {
		tree := ParseTree(src, nil)
		root := tree.RootNode()
		spans := tsflat.ChildSpans(root, false)
		if len(spans) != int(root.ChildCount()) {
			t.Fatalf("%d child spans, want %d", len(spans), root.ChildCount())
		}
		kids := tsflat.Children(root, nil)
		for i, sp := range spans {
			c := root.Child(uint(i))
			want := tsflat.Span{Start: uint32(c.StartByte()), End: uint32(c.EndByte()), HasError: c.HasError(), Subtree: tsflat.Subtree(&kids[i])}
			if sp != want || c.Id() != kids[i].Id() {
				t.Fatalf("child %d (%s): span %+v, want %+v", i, c.Kind(), sp, want)
			}
		}
		tree.Close()
	}
}
