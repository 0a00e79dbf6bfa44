package lex

import (
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

func set(ts ...int) ir.TokenSet {
	var s ir.TokenSet
	for _, t := range ts {
		s.Add(t)
	}
	return s
}

func mustExpand(t *testing.T, seps []*input.Rule, rules ...*input.Rule) *Grammar {
	t.Helper()
	g, err := Expand(toks(rules...), seps)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestConflictStatus(t *testing.T) {
	// 0 "in", 1 /\w+/, 2 "instanceof", 3 prec(2,"a"), 4 /ab/, 5 /[a-z]*/ (may match empty),
	// 6 token(prec(1, /[a-z]+/)), 7 "if", 8 "=", 9 "==".
	g := mustExpand(t, []*input.Rule{pat(`\s`)},
		str("in"), pat(`\w+`), str("instanceof"), token(prec(2, str("a"))), pat("ab"), pat("[a-z]*"),
		token(prec(1, pat("[a-z]+"))), str("if"), str("="), str("=="))
	follow := make([]ir.TokenSet, len(g.Variables))
	follow[0] = set(1) // an identifier may follow "in"
	m := NewConflictMap(g, follow)
	type q struct {
		name string
		got  bool
		want bool
	}
	for _, c := range []q{
		{"in beats identifier on the same string", m.DoesMatchSameString(0, 1), true},
		{"identifier does not beat in", m.DoesMatchSameString(1, 0), false},
		{"identifier continues in validly", m.DoesConflict(1, 0), true},
		{"winning the same string is a conflict too", m.DoesConflict(0, 1), true},
		{"identifier matches other strings than in", m.DoesMatchDifferentString(1, 0), true},
		{"in matches nothing identifier cannot", m.DoesMatchDifferentString(0, 1), false},
		{"instanceof continues in, and \\w can follow in", m.DoesConflict(2, 0), true},
		{"instanceof overlaps in", m.DoesOverlap(2, 0), true},
		{"prec(2) a stops ab: a is a prefix match", m.DoesMatchPrefix(3, 4), true},
		{"ab is no prefix of a", m.DoesMatchPrefix(4, 3), false},
		{"ab never continues past a (lower precedence)", m.DoesOverlap(4, 3), false},
		{"empty-matching token completes among separators", m.DoesOverlap(5, 0), true},
		{"explicit precedence beats the string literal", m.DoesMatchSameString(6, 7), true},
		{"string literal loses to higher precedence", m.DoesMatchSameString(7, 6), false},
		{"no following tokens: continuation is not valid", m.DoesConflict(9, 8), false},
		{"but == still overlaps =", m.DoesOverlap(9, 8), true},
		{"= does not overlap ==", m.DoesOverlap(8, 9), false},
		{"shorter-or-longer needs valid continuation", m.DoesMatchShorterOrLonger(1, 0), true},
		{"prefer the literal at equal precedence", m.PreferToken(0, 1), true},
		{"prefer the lower index between patterns", m.PreferToken(1, 5), true},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v", c.name, c.got)
		}
	}
}

func TestCoincidentIndex(t *testing.T) {
	c := NewCoincidentIndex(4, []ir.TokenSet{{}, set(0, 1), set(1, 2), set(1, 2)})
	for _, x := range []struct {
		a, b int
		want bool
		n    int
	}{{0, 1, true, 1}, {1, 0, true, 1}, {1, 2, true, 2}, {0, 2, false, 0}, {3, 3, false, 0}, {2, 2, true, 2}} {
		if c.Contains(x.a, x.b) != x.want || len(c.StatesWith(x.a, x.b)) != x.n {
			t.Errorf("(%d,%d): contains %v states %v", x.a, x.b, c.Contains(x.a, x.b), c.StatesWith(x.a, x.b))
		}
	}
}

func TestIdentifyKeywords(t *testing.T) {
	// 0 word /[a-z_]+/, 1 "if", 2 "else", 3 "+", 4 token(prec(1, "if")) shadows 1,
	// 5 /[a-z]+[0-9]/ whose conflicts differ for "else" and the word.
	g := mustExpand(t, []*input.Rule{pat(`\s`)},
		pat("[a-z_]+"), str("if"), str("else"), str("+"), token(prec(1, str("if"))), pat("[a-z]+[0-9]"))
	m := NewConflictMap(g, make([]ir.TokenSet, len(g.Variables)))

	// "else" is valid alongside token 5 in a state without the word token.
	states := []ir.TokenSet{{}, set(0, 1, 2, 3, 4), set(2, 5)}
	c := NewCoincidentIndex(len(g.Variables), states)
	kw := IdentifyKeywords(g, 0, m, c, states)
	if !kw.Equal(set(4)) {
		t.Errorf("keywords = %v, want only token 4 (1 is shadowed, 2 would change conflicts, 3 is not a word)", kw.Slice())
	}

	// With the word valid wherever "else" meets token 5, "else" is a keyword.
	states[2] = set(0, 2, 5)
	c = NewCoincidentIndex(len(g.Variables), states)
	kw = IdentifyKeywords(g, 0, m, c, states)
	if !kw.Equal(set(2, 4)) {
		t.Errorf("keywords = %v, want [2 4]", kw.Slice())
	}
	if got := IdentifyKeywords(g, -1, m, c, states); !got.Empty() {
		t.Errorf("no word token but keywords %v", got.Slice())
	}
}

func TestErrorStateTokens(t *testing.T) {
	// 0 "a", 1 /[a-z]+/ (continues "a" validly), 2 "+".
	g := mustExpand(t, nil, str("a"), pat("[a-z]+"), str("+"))
	follow := []ir.TokenSet{set(1), {}, {}}
	m := NewConflictMap(g, follow)
	c := NewCoincidentIndex(3, []ir.TokenSet{{}, set(0), set(1), set(2)})
	if got := ErrorStateTokens(g, -1, ir.TokenSet{}, m, c); !got.Equal(set(0, 2)) {
		t.Errorf("error state tokens = %v, want [0 2]: the pattern conflicts with the conflict-free \"a\"", got.Slice())
	}
	if got := ErrorStateTokens(g, 1, ir.TokenSet{}, m, c); !got.Equal(set(0, 1, 2)) {
		t.Errorf("with token 1 as word: %v, want all", got.Slice())
	}
	// Coincident tokens never exclude each other.
	c = NewCoincidentIndex(3, []ir.TokenSet{{}, set(0, 1), set(2)})
	if got := ErrorStateTokens(g, -1, ir.TokenSet{}, m, c); !got.Equal(set(0, 1, 2)) {
		t.Errorf("coincident: %v, want all", got.Slice())
	}
}
