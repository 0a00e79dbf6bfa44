package lex

import (
	"errors"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// FuzzPipeline runs arbitrary small patterns through every stage: nothing
// may panic, and rendering must be deterministic.
func FuzzPipeline(f *testing.F) {
	for _, s := range [][2]string{{"[a-z]+", "if"}, {`"[^"]*"`, "\\s"}, {"a|", "(?i)x+"}, {".", "[^\\n]*"}} {
		f.Add(s[0], s[1], "x")
	}
	f.Fuzz(func(t *testing.T, p1, p2, lit string) {
		if len(p1) > 16 || len(p2) > 16 || len(lit) > 8 || lit == "" {
			return
		}
		rules := []*input.Rule{pat(p1), pat(p2), str(lit), immediate(str(lit + lit))}
		g, err := Expand(toks(rules...), []*input.Rule{pat(`\s`)})
		if err != nil {
			var te *TokenError
			if !errors.As(err, &te) || te.Token == "" {
				t.Fatalf("error without token name: %v", err)
			}
			return
		}
		n := len(g.Variables)
		var all ir.TokenSet
		for i := 0; i < n; i++ {
			all.Add(i)
		}
		follow := make([]ir.TokenSet, n)
		for i := range follow {
			follow[i] = all.Clone()
		}
		m := NewConflictMap(g, follow)
		inputs := []LexStateInput{{Tokens: all, EOF: true}, {Tokens: set(0, 2)}, {Tokens: set(1, 3), EOF: true}}
		states := []ir.TokenSet{{}, inputs[1].Tokens, inputs[2].Tokens}
		c := NewCoincidentIndex(n, states)
		kw := IdentifyKeywords(g, 0, m, c, states)
		ErrorStateTokens(g, 0, kw, m, c)
		main, kwt, _ := BuildLexTables(g, inputs, 0, kw, m, c)
		render := func() string {
			var b strings.Builder
			sym := symbolNames(g)
			if err := RenderLexHelpersNamed(&b, sym, main, kwt); err != nil {
				t.Fatal(err)
			}
			if err := RenderLexFunction(&b, "ts_lex", main, sym); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		if render() != render() {
			t.Fatal("rendering is not deterministic")
		}
	})
}
