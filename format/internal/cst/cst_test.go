package cst

import (
	"strings"
	"testing"
)

// tree builds a small tree over src by hand: `f(a) // c`.
func tree() (*Node, []byte) {
	src := []byte("f(a) // c\n")
	leaf := func(kind string, named bool, s, e int) *Node {
		return &Node{Kind: kind, Named: named, Start: s, End: e}
	}
	args := &Node{Kind: "arguments", Named: true, Start: 1, End: 4, Kids: []*Node{leaf("(", false, 1, 2), leaf("identifier", true, 2, 3), leaf(")", false, 3, 4)}}
	call := &Node{Kind: "call", Named: true, Start: 0, End: 4, Kids: []*Node{leaf("identifier", true, 0, 1), args}}
	root := &Node{Kind: "source_file", Named: true, Start: 0, End: 10, Kids: []*Node{call, leaf("comment", true, 5, 9)}}
	return root, src
}

func isComment(n *Node) bool { return n.Kind == "comment" }

func TestTokens(t *testing.T) {
	root, src := tree()
	var got []string
	for _, tok := range Tokens(root, src, isComment, map[string]bool{")": true}) {
		got = append(got, tok.Kind+"="+tok.Text)
	}
	want := "source_file= call= identifier=f arguments= (= identifier=a"
	if strings.Join(got, " ") != want {
		t.Errorf("Tokens = %s\nwant     %s", strings.Join(got, " "), want)
	}
	if c := Comments(root, src, isComment); len(c) != 1 || c[0] != "// c" {
		t.Errorf("Comments = %q", c)
	}
}

func TestDiff(t *testing.T) {
	a := []Token{{Kind: "identifier", Text: "x", Leaf: true}}
	if d := Diff(a, a); d != "" {
		t.Errorf("equal lists differ: %s", d)
	}
	b := []Token{{Kind: "identifier", Text: "y", Leaf: true}}
	if d := Diff(a, b); !strings.Contains(d, `"x"`) || !strings.Contains(d, `"y"`) {
		t.Errorf("Diff names the tokens: %s", d)
	}
	if d := Diff(a, nil); d == "" {
		t.Error("a missing token is a difference")
	}
}

// TestDeep: Tokens, Comments and FirstError walk a chain 100,000 nodes
// deep without recursion.
func TestDeep(t *testing.T) {
	const depth = 100000
	src := []byte("x")
	root := &Node{Kind: "leaf", Named: true, Start: 0, End: 1}
	for range depth {
		root = &Node{Kind: "wrap", Named: true, Start: 0, End: 1, HasError: true, Kids: []*Node{root}}
	}
	if n := len(Tokens(root, src, isComment, nil)); n != depth+1 {
		t.Errorf("%d tokens", n)
	}
	if len(Comments(root, src, isComment)) != 0 {
		t.Error("no comments expected")
	}
	if FirstError(root) != 0 {
		t.Error("FirstError")
	}
}
