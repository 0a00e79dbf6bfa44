package leia

import "github.com/harnlang/harn-check/format/internal/cst"

// token is one token of the file as the layout sees it: a leaf of the
// tree, or a whole literal that is kept exactly (strings, templates,
// comments).
type token struct {
	n *cst.Node
	// parent is the node the token belongs to.
	parent *cst.Node
}

// atomic are the nodes written exactly as they are, never entered.
var atomic = map[string]bool{
	"string": true, "single_string": true, "raw_string": true, "fenced_string": true,
	"template": true, "fenced_template": true, "comment": true, "directive": true,
	// q { ... } bodies are raw text (interpolations included).
	"q_block": true, "shebang": true,
}

// tokens lists the tokens of the tree in source order, iteratively.
func tokens(root *cst.Node) []token {
	var out []token
	type frame struct{ n, parent *cst.Node }
	stack := []frame{{root, nil}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if n.End <= n.Start && len(n.Kids) == 0 {
			continue // zero-width tokens (end of file)
		}
		if len(n.Kids) == 0 || atomic[n.Kind] {
			out = append(out, token{n: n, parent: f.parent})
			continue
		}
		for i := len(n.Kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{n.Kids[i], n})
		}
	}
	return out
}
