package cst

import (
	"fmt"
	"strings"
)

// Token is one entry of a tree's Tokens: a named node's kind (Leaf false)
// or a leaf's kind and text.
type Token struct {
	Kind string
	Text string
	Leaf bool
	// Start is the byte offset in the tree's source, for messages.
	Start int
}

// Tokens lists a tree in preorder, skipping comments and the tokens in
// skip (the separators a formatter may add or drop), the way the
// formatter's safety checks compare programs: named nodes by kind, leaves
// (tokens by kind, identifiers, literals and string contents by kind and
// text).
// isComment tells a comment node. It is iterative, so any depth is fine.
func Tokens(root *Node, src []byte, isComment func(*Node) bool, skip map[string]bool) []Token {
	var out []Token
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || isComment(n) || (!n.Named && skip[n.Kind]) {
			continue
		}
		if len(n.Kids) == 0 {
			t := Token{Kind: n.Kind, Leaf: true, Start: n.Start}
			if n.Named {
				t.Text = n.Text(src) // an anonymous token's kind is its text
			}
			out = append(out, t)
			continue
		}
		out = append(out, Token{Kind: n.Kind, Start: n.Start})
		for i := len(n.Kids) - 1; i >= 0; i-- {
			stack = append(stack, n.Kids[i])
		}
	}
	return out
}

// Comments lists the texts of a tree's comments in source order, with
// the trailing whitespace of each line removed.
func Comments(root *Node, src []byte, isComment func(*Node) bool) []string {
	var out []string
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if isComment(n) {
			lines := strings.Split(n.Text(src), "\n")
			for i, l := range lines {
				lines[i] = strings.TrimRight(l, " \t\r")
			}
			// (A comment left open at the end of the file runs into the
			// file's last newline; that newline is whitespace too.)
			out = append(out, strings.TrimRight(strings.Join(lines, "\n"), "\n"))
			continue
		}
		for i := len(n.Kids) - 1; i >= 0; i-- {
			stack = append(stack, n.Kids[i])
		}
	}
	return out
}

// Diff compares two token lists and describes the first difference, ""
// when they are equal.
func Diff(a, b []Token) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Kind != b[i].Kind || a[i].Leaf != b[i].Leaf || (a[i].Leaf && a[i].Text != b[i].Text) {
			return fmt.Sprintf("token %d differs: %s %q at byte %d before, %s %q at byte %d after",
				i, a[i].Kind, a[i].Text, a[i].Start, b[i].Kind, b[i].Text, b[i].Start)
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d tokens before, %d after", len(a), len(b))
	}
	return ""
}
