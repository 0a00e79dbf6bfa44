package binding

import (
	"testing"

	"github.com/harnlang/harn-check/grammar/tsflat"
)

// TestChildSpansOfLeiaTopLevel compares tsflat.ChildSpans of a Leia
// file's root (read from the subtrees of the balanced repetition of its
// top-level statements, comments among them) with go-tree-sitter's
// children, one by one, in clean and broken files.
func TestChildSpansOfLeiaTopLevel(t *testing.T) {
	for _, src := range [][]byte{reuseSource(30), []byte("x := 1\n// c\n\n/* d */ y := {a: 1}\nprint(x)"), []byte(""), []byte("// only a comment\n"),
		[]byte("x := (1\nfunc f( {\n}\n)) ]\nprint(\"a\n"), append(reuseSource(5), "func g() { if { ) }\n"...)} {
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
