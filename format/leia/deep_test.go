package leia

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func nested(depth int) map[string]string {
	return map[string]string{
		"tables": "x := " + strings.Repeat("{", depth) + strings.Repeat("}", depth) + "\n",
		"blocks": "func f() {\n" + strings.Repeat("if a {\n", depth) + strings.Repeat("}\n", depth) + "}\n",
		"calls":  "x := " + strings.Repeat("f(", depth) + strings.Repeat(")", depth) + "\n",
	}
}

// TestDeepNesting formats programs nested 100,000 levels deep: the
// formatter is iterative, so it must neither overflow the stack nor hang
// (the parser may give up, a SyntaxError). Lines nested past MaxDepth keep
// their indentation, and a program a few times deeper than MaxDepth must
// format faithfully and idempotently.
func TestDeepNesting(t *testing.T) {
	for name, src := range nested(100000) {
		if name == "blocks" {
			// Parsing 100,000 nested statement blocks alone takes seconds
			// (the parser, not the formatter); 20,000 keep the suite fast.
			src = nested(20000)[name]
		}
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
