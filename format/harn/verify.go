package harn

import (
	"fmt"
	"slices"

	"github.com/harnlang/harn-check/format/internal/cst"
)

// separators are the tokens formatting may add or drop.
var separators = map[string]bool{",": true, ";": true}

// Verify checks that out is a faithful formatting of src: it parses
// without syntax errors, it is the same program (the same syntax tree
// apart from whitespace, comments' positions and the separators `,` and
// `;`), and it has the same comments in the same order. It is the safety
// net the command line and the language server run before they replace a
// file's text.
func Verify(src, out []byte) error {
	a, err := Parse(src)
	if err != nil {
		return err
	}
	b, err := Parse(out)
	if err != nil {
		return fmt.Errorf("harn: formatting produced a syntax error (please report this): %w", err)
	}
	if d := cst.Diff(cst.Tokens(a, src, isTrivia, separators), cst.Tokens(b, out, isTrivia, separators)); d != "" {
		return fmt.Errorf("harn: formatting changed the program (please report this): %s", d)
	}
	if !slices.Equal(cst.Comments(a, src, isTrivia), cst.Comments(b, out, isTrivia)) {
		return fmt.Errorf("harn: formatting changed the comments (please report this)")
	}
	return nil
}

// isTrivia tells the nodes compared as comments (text without trailing
// whitespace) rather than as program: comments and the `#!` line.
func isTrivia(n *cst.Node) bool { return isComment(n) || n.Kind == "shebang" }
