package tsflat

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"

	"github.com/harnlang/harn-check/grammar/tsutil"
)

// refWalk computes the records with go-tree-sitter's own cursor and node
// methods, the walk Walk replaces.
func refWalk(root *sitter.Node) []Record {
	var out []Record
	c := root.Walk()
	defer c.Close()
	var visit func(parent uint32)
	visit = func(parent uint32) {
		n := c.Node()
		r := Record{
			StartByte: uint32(n.StartByte()), EndByte: uint32(n.EndByte()), Parent: parent,
			Symbol: n.KindId(), Field: c.FieldId(),
		}
		for _, f := range []struct {
			on  bool
			bit uint8
		}{{n.IsNamed(), Named}, {n.IsMissing(), Missing}, {n.IsExtra(), Extra}, {n.IsError(), Error}, {n.HasError(), HasError}} {
			if f.on {
				r.Flags |= f.bit
			}
		}
		if n.IsError() {
			leaf := n
			for leaf.ChildCount() > 0 {
				leaf = leaf.Child(0)
			}
			r.LeafState = leaf.ParseState()
			// ts_node_string is the public witness of an ERROR node
			// without children, hidden ones included: it prints such a
			// node, when it is not empty, as UNEXPECTED.
			if n.EndByte() > n.StartByte() && strings.HasPrefix(n.ToSexp(), "(UNEXPECTED") {
				r.Flags |= ErrorLeaf
			}
		}
		self := uint32(len(out))
		out = append(out, r)
		if parent != NoParent {
			out[parent].ChildCount++
		}
		if c.GotoFirstChild() {
			for {
				visit(self)
				if !c.GotoNextSibling() {
					break
				}
			}
			c.GotoParent()
		}
	}
	visit(NoParent)
	return out
}

func parse(t *testing.T, lang *sitter.Language, src []byte) *sitter.Tree {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(lang); err != nil {
		t.Fatal(err)
	}
	tree := tsutil.Parse(p, src, nil)
	if tree == nil {
		t.Fatalf("parse of %d bytes gave no tree", len(src))
	}
	return tree
}

// inputs are Go sources from GOROOT and JSON documents, each also with
// random byte damage, so that ERROR and MISSING nodes occur.
func inputs(t *testing.T) []struct {
	lang *sitter.Language
	src  []byte
} {
	t.Helper()
	goLang := sitter.NewLanguage(unsafe.Pointer(tsgo.Language()))
	jsonLang := sitter.NewLanguage(unsafe.Pointer(tsjson.Language()))
	var out []struct {
		lang *sitter.Language
		src  []byte
	}
	add := func(lang *sitter.Language, src []byte) {
		out = append(out, struct {
			lang *sitter.Language
			src  []byte
		}{lang, src})
	}
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	if len(files) == 0 {
		t.Fatal("no Go sources under GOROOT/src/strings")
	}
	rng := rand.New(rand.NewSource(7))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(goLang, src)
		for range 3 {
			damaged := append([]byte(nil), src...)
			for range 5 {
				i := rng.Intn(len(damaged))
				damaged[i] = "{}()[]\"'`;:=,\n x"[rng.Intn(16)]
			}
			add(goLang, damaged)
		}
	}
	for _, s := range []string{`{"a": [1, 2, {"b": null}], "c": "d"}`, `{"a": [1, 2`, `[1,,2]`, `{"a" 1}`, ``, `"x`} {
		add(jsonLang, []byte(s))
	}
	return out
}

func TestWalkMatchesCursorWalk(t *testing.T) {
	var errs, missing, nodes int
	for i, in := range inputs(t) {
		tree := parse(t, in.lang, in.src)
		root := tree.RootNode()
		want := refWalk(root)
		got := Walk(root, nil)
		if len(got) != len(want) {
			t.Fatalf("input %d: %d records, cursor walk %d", i, len(got), len(want))
		}
		for j := range want {
			if want[j].Flags&Error != 0 && want[j].EndByte == want[j].StartByte {
				got[j].Flags &^= ErrorLeaf // an empty node has no public witness
			}
			if got[j] != want[j] {
				t.Fatalf("input %d record %d: %+v, cursor walk %+v", i, j, got[j], want[j])
			}
			if want[j].Flags&Error != 0 {
				errs++
			}
			if want[j].Flags&Missing != 0 {
				missing++
			}
		}
		nodes += len(want)
		tree.Close()
	}
	if errs == 0 || missing == 0 {
		t.Errorf("inputs gave %d ERROR and %d MISSING nodes; the test needs both", errs, missing)
	}
	t.Logf("%d records compared, %d ERROR, %d MISSING", nodes, errs, missing)
}

// TestWalkBuffers: a buffer that is too small is replaced (the second call
// counts exactly), one that is large enough is reused, and a subtree or a
// nil root works.
func TestWalkBuffers(t *testing.T) {
	lang := sitter.NewLanguage(unsafe.Pointer(tsjson.Language()))
	tree := parse(t, lang, []byte(`{"a": [1, 2, {"b": null}], "c": "d"}`))
	defer tree.Close()
	want := refWalk(tree.RootNode())
	for _, size := range []int{1, 2, len(want) - 1, len(want), len(want) + 5, 4096} {
		buf := make([]Record, size)
		got := Walk(tree.RootNode(), buf)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("buffer of %d: %d records, want %d", size, len(got), len(want))
		}
		if reused := &got[0] == &buf[0]; reused != (size >= len(want)) {
			t.Errorf("buffer of %d records reused = %v", size, reused)
		}
	}
	sub := tree.RootNode().Child(0).Child(1) // the pair "a": [...]
	if sub == nil {
		t.Fatal("no pair node")
	}
	if got, want := Walk(sub, nil), refWalk(sub); !reflect.DeepEqual(got, want) {
		t.Errorf("subtree: %+v, want %+v", got, want)
	}
	if got := Walk(nil, make([]Record, 3)); len(got) != 0 {
		t.Errorf("nil root gave %d records", len(got))
	}
}

func TestNames(t *testing.T) {
	lang := sitter.NewLanguage(unsafe.Pointer(tsgo.Language()))
	n := NamesOf(lang)
	if NamesOf(lang) != n {
		t.Error("NamesOf does not cache per language")
	}
	for id := uint16(0); id < uint16(lang.NodeKindCount()); id++ {
		if got, want := n.Symbol(id), lang.NodeKindForId(id); got != want {
			t.Errorf("symbol %d: %q, want %q", id, got, want)
		}
	}
	if got := n.Symbol(0xFFFF); got != "ERROR" {
		t.Errorf("symbol 0xFFFF = %q, want ERROR", got)
	}
	for id := uint16(1); id <= uint16(lang.FieldCount()); id++ {
		if got, want := n.Field(id), lang.FieldNameForId(id); got != want || got == "" {
			t.Errorf("field %d: %q, want %q", id, got, want)
		}
	}
	if n.Field(0) != "" || n.Field(uint16(lang.FieldCount()+1)) != "" {
		t.Error("field 0 or an unknown field has a name")
	}
}

// TestDescendantCountIsExact: the runtime's descendant count, which Walk
// uses to size its buffer before walking, is the number of records the
// walk writes, so a too-small buffer never costs a wasted walk.
func TestDescendantCountIsExact(t *testing.T) {
	for i, in := range inputs(t) {
		tree := parse(t, in.lang, in.src)
		root := tree.RootNode()
		if got, want := int(root.DescendantCount()), len(refWalk(root)); got != want {
			t.Errorf("input %d: descendant count %d, walk visits %d", i, got, want)
		}
		tree.Close()
	}
}

// TestNamedChildren compares NamedChildren and Children with
// go-tree-sitter's NamedChild and Child on nodes of the test inputs,
// with a buffer too small at first.
func TestNamedChildren(t *testing.T) {
	direct := directSpans()
	defer func() {
		if directSpans() == direct {
			t.Error("no listing of ChildSpans was read from the subtrees: only the cursor walk was compared")
		}
	}()
	for _, in := range inputs(t) {
		tree := parse(t, in.lang, in.src)
		var walk func(n *sitter.Node)
		checked := 0
		walk = func(n *sitter.Node) {
			if checked > 2000 {
				return
			}
			checked++
			all := Children(n, nil)
			if len(all) != int(n.ChildCount()) {
				t.Fatalf("%s: %d children, want %d", n.Kind(), len(all), n.ChildCount())
			}
			for i := range all {
				if want := n.Child(uint(i)); all[i].Id() != want.Id() {
					t.Fatalf("%s: child %d is %s, want %s", n.Kind(), i, all[i].Kind(), want.Kind())
				}
			}
			for _, named := range []bool{false, true} {
				spans := ChildSpans(n, named)
				nodes := Children(n, nil)
				if named {
					nodes = NamedChildren(n, nil)
				}
				if len(spans) != len(nodes) {
					t.Fatalf("%s: %d child spans (named %v), want %d", n.Kind(), len(spans), named, len(nodes))
				}
				for i, sp := range spans {
					c := &nodes[i]
					if want := (Span{Start: uint32(c.StartByte()), End: uint32(c.EndByte()), HasError: c.HasError(), Subtree: Subtree(c)}); sp != want || sp.Subtree == 0 {
						t.Fatalf("%s: child span %d (named %v) is %+v, want %+v", n.Kind(), i, named, sp, want)
					}
					at := ChildAt(n, sp.Start, sp.End, named)
					switch {
					case sp.End == sp.Start && at != nil:
						t.Fatalf("%s: ChildAt of the empty child %d (named %v) is %s", n.Kind(), i, named, at.Kind())
					case sp.End > sp.Start && (at == nil || at.Id() != c.Id()):
						t.Fatalf("%s: ChildAt of child %d (named %v) %+v is %v, want %s", n.Kind(), i, named, sp, at, c.Kind())
					}
				}
			}
			got := NamedChildren(n, make([]sitter.Node, 1))
			if len(got) != int(n.NamedChildCount()) {
				t.Fatalf("%s: %d named children, want %d", n.Kind(), len(got), n.NamedChildCount())
			}
			for i := range got {
				want := n.NamedChild(uint(i))
				if got[i].Id() != want.Id() || got[i].StartByte() != want.StartByte() || got[i].Kind() != want.Kind() {
					t.Fatalf("%s: named child %d is %s at %d, want %s at %d", n.Kind(), i, got[i].Kind(), got[i].StartByte(), want.Kind(), want.StartByte())
				}
				walk(&got[i])
			}
		}
		walk(tree.RootNode())
		tree.Close()
	}
	if got := NamedChildren(nil, nil); len(got) != 0 {
		t.Fatalf("nil parent: %d children", len(got))
	}
	if got := ChildSpans(nil, false); len(got) != 0 {
		t.Fatalf("nil parent: %d child spans", len(got))
	}
}

// TestSubtreeAfterReparse edits one function of a Go file and reparses
// incrementally: the top-level declarations the edit did not reach keep
// their subtrees, the edited one gets a new one, and every child whose
// subtree is the old tree's has the same text and structure as the old
// child.
func TestSubtreeAfterReparse(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := range 200 {
		b.WriteString("func f" + strings.Repeat("x", i%7) + "(a int) int {\n\treturn a + 1\n}\n\n")
	}
	src := []byte(b.String())
	lang := sitter.NewLanguage(tsgo.Language())
	old := parse(t, lang, src)
	defer old.Close()
	for _, at := range []int{len(src) / 2, len(src) / 3, len(src) - 10} {
		at := at + strings.Index(string(src[at:]), "+ 1") + 2 // the literal of a body
		now := append(append(append([]byte{}, src[:at]...), '7'), src[at:]...)
		edited := old.Clone()
		pt := sitter.Point{Row: uint(strings.Count(string(src[:at]), "\n")), Column: uint(at - 1 - strings.LastIndexByte(string(src[:at]), '\n'))}
		edited.Edit(&sitter.InputEdit{StartByte: uint(at), OldEndByte: uint(at), NewEndByte: uint(at + 1),
			StartPosition: pt, OldEndPosition: pt, NewEndPosition: sitter.Point{Row: pt.Row, Column: pt.Column + 1}})
		p := sitter.NewParser()
		if err := p.SetLanguage(lang); err != nil {
			t.Fatal(err)
		}
		tree := p.Parse(now, edited)
		p.Close()
		edited.Close()
		before := map[uint64]int{}
		oldKids := ChildSpans(old.RootNode(), false)
		for i, sp := range oldKids {
			before[sp.Subtree] = i
		}
		same, changed := 0, 0
		names := NamesOf(lang)
		oldAll, newAll := Children(old.RootNode(), nil), Children(tree.RootNode(), nil)
		for i, sp := range ChildSpans(tree.RootNode(), false) {
			j, ok := before[sp.Subtree]
			if !ok {
				changed++
				if sp.Start > uint32(at) || sp.End < uint32(at) {
					t.Errorf("edit at %d: child %d at %d-%d, away from the edit, got a new subtree", at, i, sp.Start, sp.End)
				}
				continue
			}
			same++
			o := oldKids[j]
			if sp.Start <= uint32(at) && sp.End >= uint32(at+1) {
				t.Fatalf("edit at %d: the edited child %d kept its old subtree", at, i)
			}
			if string(now[sp.Start:sp.End]) != string(src[o.Start:o.End]) ||
				SexpOf(&newAll[i], names, now) != SexpOf(&oldAll[j], names, src) {
				t.Fatalf("edit at %d: child %d has the subtree of old child %d but not its text or structure", at, i, j)
			}
		}
		if changed == 0 || same < 195 {
			t.Fatalf("edit at %d: %d children kept their subtree, %d changed; want the edited function changed and the ~200 others kept", at, same, changed)
		}
		tree.Close()
	}
}
