package harn

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// nested builds programs nested depth levels deep.
func nested(depth int) map[string]string {
	return map[string]string{
		"parentheses": "let x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n",
		"lists":       "let x = " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n",
		"blocks":      "fn f() {\n" + strings.Repeat("if a {\n", depth) + strings.Repeat("}\n", depth) + "}\n",
		"unary":       "let x = " + strings.Repeat("!", depth) + "a\n",
		"binary":      "let x = a" + strings.Repeat(" + a", depth) + "\n",
	}
}

// TestDeepNesting formats programs nested 100,000 levels deep: the
// formatter must neither overflow the stack nor hang (the parser may give
// up, a SyntaxError). Nesting past MaxDepth is written as it is, and a
// program a few times deeper than MaxDepth must still format faithfully
// and idempotently.
func TestDeepNesting(t *testing.T) {
	for name, src := range nested(100000) {
		t.Run(name, func(t *testing.T) {
			if _, err := Format([]byte(src)); err != nil && !errors.Is(err, ErrSyntax) {
				t.Fatalf("unexpected error: %v", err)
			}
		})
	}
	for name, src := range nested(5 * MaxDepth) {
		t.Run(name+" past MaxDepth", func(t *testing.T) {
			out, err := Format([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify([]byte(src), out); err != nil {
				t.Fatal(err)
			}
			if again, err := Format(out); err != nil || !bytes.Equal(again, out) {
				t.Fatalf("not idempotent: %v", err)
			}
		})
	}
}
