package leia

import (
	"fmt"
	"slices"

	"github.com/harnlang/harn-check/format/internal/cst"
)

// isComment tells the nodes compared as comments (text without trailing
// whitespace) rather than as program: comments, directives and the `#!`
// line.
func isComment(n *cst.Node) bool {
	return n.Kind == "comment" || n.Kind == "directive" || n.Kind == "shebang"
}

// Verify checks that out is a faithful formatting of src: it parses
// without syntax errors, it is the same program (the same syntax tree
// apart from whitespace) and it has the same comments in the same order.
// The command line and the language server run it before they replace a
// file's text.
func Verify(src, out []byte) error {
	a, err := Parse(src)
	if err != nil {
		return err
	}
	b, err := Parse(out)
	if err != nil {
		return fmt.Errorf("leia: formatting produced a syntax error (please report this): %w", err)
	}
	if d := cst.Diff(cst.Tokens(a, src, isComment, nil), cst.Tokens(b, out, isComment, nil)); d != "" {
		return fmt.Errorf("leia: formatting changed the program (please report this): %s", d)
	}
	if !slices.Equal(cst.Comments(a, src, isComment), cst.Comments(b, out, isComment)) {
		return fmt.Errorf("leia: formatting changed the comments (please report this)")
	}
	return nil
}
