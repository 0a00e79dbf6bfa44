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
	if d := cst.Diff(cst.Tokens(a, src, isComment, separators), cst.Tokens(b, out, isComment, separators)); d != "" {
		return fmt.Errorf("harn: formatting changed the program (please report this): %s", d)
	}
	if !slices.Equal(cst.Comments(a, src, isComment), cst.Comments(b, out, isComment)) {
		return fmt.Errorf("harn: formatting changed the comments (please report this)")
	}
	return nil
}
