package tsbind

import (
	"fmt"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/grammar/tsnode"
)

// goGrammar binds tree-sitter-go, a grammar of neither language, so that
// the binding is tested on its own.
var goGrammar = New(sitter.NewLanguage(tsgo.Language()), nil)

// dump prints a tree: kind, span, flags and field of every node.
func dump(n tsnode.Node, field string, depth int, b *strings.Builder) {
	if n == nil {
		b.WriteString("<nil>\n")
		return
	}
	fmt.Fprintf(b, "%s%s:%s [%d,%d) named=%v error=%v missing=%v extra=%v\n", strings.Repeat("  ", depth), field, n.Kind(),
		n.StartByte(), n.EndByte(), n.IsNamed(), n.IsError(), n.IsMissing(), n.IsExtra())
	for i := range n.ChildCount() {
		dump(n.Child(i), n.FieldNameForChild(i), depth+1, b)
	}
}

func dumpOf(n tsnode.Node) string {
	var b strings.Builder
	dump(n, "", 0, &b)
	return b.String()
}

// TestSnapshotsAgreeWithTheLiveTree: the live adapter (Wrap), the kept
// snapshot (Snapshot) and the recycled one (WithSnapshot) read the same
// tree, errors, missing nodes and comments included.
func TestSnapshotsAgreeWithTheLiveTree(t *testing.T) {
	for _, src := range []string{
		"package p\n\nfunc f(x int) int { return x + 1 } // c\n",
		"package p\nfunc f( { x := T{1, 2 }\n",
		"",
	} {
		tree := goGrammar.ParseTree([]byte(src), nil)
		if tree == nil {
			t.Fatalf("%q: the parse gave up", src)
		}
		live := dumpOf(Wrap(tree.RootNode()))
		if kept := dumpOf(goGrammar.Snapshot(tree.RootNode())); kept != live {
			t.Errorf("%q: snapshot\n%s\nlive tree\n%s", src, kept, live)
		}
		recs, release := Records(tree.RootNode())
		var recycled string
		goGrammar.WithSnapshot(recs, func(root tsnode.Node) { recycled = dumpOf(root) })
		release()
		if recycled != live {
			t.Errorf("%q: recycled snapshot\n%s\nlive tree\n%s", src, recycled, live)
		}
		tree.Close()
	}
	if Wrap(nil) != nil || goGrammar.Snapshot(nil) != nil {
		t.Error("no node must be a nil interface")
	}
}

// TestPrepareKeepsOffsets: the parser reads the prepared input, and the
// tree's offsets are those of the source.
func TestPrepareKeepsOffsets(t *testing.T) {
	upper := New(goGrammar.Language(), func(src []byte) []byte { return []byte(strings.ToLower(string(src))) })
	src := []byte("PACKAGE p\n")
	tree := upper.ParseTree(src, nil)
	defer tree.Close()
	root := upper.Snapshot(tree.RootNode())
	if d := dumpOf(root); strings.Contains(d, "error=true") || strings.Contains(d, "missing=true") || root.Child(0).EndByte() != len("PACKAGE p") {
		t.Errorf("prepared parse:\n%s", d)
	}
	plain := goGrammar.ParseTree(src, nil)
	defer plain.Close()
	if !plain.RootNode().HasError() {
		t.Error("the unprepared source must not parse: the test proves nothing")
	}
}

// TestExpectedAtAnError: an ERROR node of a snapshot names what the
// parser accepted where it begins, and other nodes name nothing.
func TestExpectedAtAnError(t *testing.T) {
	src := []byte("package p\nfunc f() { x := ) }\n")
	tree := goGrammar.ParseTree(src, nil)
	defer tree.Close()
	var errs, others int
	var walk func(n tsnode.Node)
	walk = func(n tsnode.Node) {
		e := n.(interface{ Expected() []string }).Expected()
		if n.IsError() {
			errs++
			if len(e) == 0 {
				t.Errorf("ERROR at %d expects nothing", n.StartByte())
			}
		} else if e != nil {
			others++
		}
		for i := range n.ChildCount() {
			walk(n.Child(i))
		}
	}
	walk(goGrammar.Snapshot(tree.RootNode()))
	if errs == 0 || others != 0 {
		t.Errorf("%d ERROR nodes, %d other nodes with expectations", errs, others)
	}
}
