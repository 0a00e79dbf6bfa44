package lex

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// Rule constructors for tests.
func str(v string) *input.Rule { return &input.Rule{Type: input.String, Value: v} }
func pat(v string) *input.Rule { return &input.Rule{Type: input.Pattern, Value: v} }
func patf(v, f string) *input.Rule {
	return &input.Rule{Type: input.Pattern, Value: v, Flags: f}
}
func seq(m ...*input.Rule) *input.Rule     { return &input.Rule{Type: input.Seq, Members: m} }
func choiceR(m ...*input.Rule) *input.Rule { return &input.Rule{Type: input.Choice, Members: m} }
func repeat(c *input.Rule) *input.Rule     { return &input.Rule{Type: input.Repeat, Content: c} }
func repeat1(c *input.Rule) *input.Rule    { return &input.Rule{Type: input.Repeat1, Content: c} }
func blank() *input.Rule                   { return &input.Rule{Type: input.Blank} }
func prec(n int, c *input.Rule) *input.Rule {
	return &input.Rule{Type: input.Prec, Prec: input.Precedence{Int: n}, Content: c}
}
func token(c *input.Rule) *input.Rule { return &input.Rule{Type: input.Token, Content: c} }
func immediate(c *input.Rule) *input.Rule {
	return &input.Rule{Type: input.ImmediateToken, Content: c}
}

func toks(rules ...*input.Rule) []TokenVariable {
	out := make([]TokenVariable, len(rules))
	for i, r := range rules {
		out[i] = TokenVariable{Name: fmt.Sprintf("t%d", i), Kind: ir.Anonymous, Rule: r}
	}
	return out
}

// simulate runs the NFA over s as the CLI's test helper does: longest match
// with precedence, separators moving the token start.
func simulate(g *Grammar, s string) (int, string, bool) {
	var starts []int32
	for _, v := range g.Variables {
		starts = append(starts, v.startState)
	}
	c := newCursor(g.nfa)
	c.reset(starts)
	result, resultText, found := -1, "", false
	resultPrec := int32(-1 << 31)
	rs := []rune(s)
	start, end := 0, 0
	complete := func() {
		for _, comp := range c.completions() {
			if !found || resultPrec <= comp.prec {
				result, resultText, found, resultPrec = comp.variable, string(rs[start:end]), true, comp.prec
			}
		}
	}
	for _, ch := range rs {
		complete()
		var next *transition
		for _, t := range c.transitions() {
			if t.chars.Contains(ch) && t.prec >= resultPrec {
				t := t
				next = &t
				break
			}
		}
		if next == nil {
			return result, resultText, found
		}
		c.reset(next.states)
		end++
		if next.isSep {
			start = end
		}
	}
	complete()
	return result, resultText, found
}

type example struct {
	in    string
	tok   int
	text  string
	found bool
}

func TestExpandMatches(t *testing.T) {
	cases := []struct {
		name     string
		tokens   []*input.Rule
		seps     []*input.Rule
		examples []example
	}{
		{"alternation", []*input.Rule{pat(`(a|b|c)d(e|f|g)h?`)}, nil, []example{
			{"ade1", 0, "ade", true}, {"bdfh1", 0, "bdfh", true}, {"ad1", 0, "", false}}},
		{"repeats in sequence", []*input.Rule{pat(`a((bc)+|(de)*)f`)}, nil, []example{
			{"af1", 0, "af", true}, {"adedef1", 0, "adedef", true}, {"abcbcbcf1", 0, "abcbcbcf", true}, {"a", 0, "", false}}},
		{"perl classes", []*input.Rule{pat(`\w\d\s`)}, nil, []example{{"_0  ", 0, "_0 ", true}}},
		{"string", []*input.Rule{str("abc")}, nil, []example{{"abcd", 0, "abc", true}, {"ab", 0, "", false}}},
		{"strings and patterns", []*input.Rule{repeat1(seq(str("{"), pat("[a-f]+"), str("}")))}, nil, []example{
			{"{a}{", 0, "{a}", true}, {"{a}{d", 0, "{a}", true}, {"ab", 0, "", false}}},
		{"longest match", []*input.Rule{pat("a|bc"), pat("aa"), pat("bcd")}, nil, []example{
			{"a.", 0, "a", true}, {"bc.", 0, "bc", true}, {"aa.", 1, "aa", true}, {"bcd?", 2, "bcd", true}, {"b.", 0, "", false}}},
		{"empty alternative", []*input.Rule{pat("a(b|)+c")}, nil, []example{
			{"ac.", 0, "ac", true}, {"abbc.", 0, "abbc", true}}},
		{"separators", []*input.Rule{pat("[a-f]+")}, []*input.Rule{str("\\\n"), pat(`\s`)}, []example{
			{"  a", 0, "a", true}, {"  \nb", 0, "b", true}, {"  \\a", 0, "", false}, {"  \\\na", 0, "a", true}}},
		{"precedence inside tokens", []*input.Rule{prec(2, pat("abc")), prec(1, pat("ab[cd]e")), pat("[a-e]+")}, nil, []example{
			{"abceef", 0, "abc", true}, {"abdeef", 1, "abde", true}, {"aeeeef", 2, "aeeee", true}}},
		{"immediate with precedence", []*input.Rule{prec(1, pat("[^a]+")), immediate(prec(2, pat("[^ab]+")))}, []*input.Rule{pat(`\s`)}, []example{
			{"cccb", 1, "ccc", true}}},
		{"nested choice in seq", []*input.Rule{seq(str("a"), choiceR(str("b"), str("c")), str("d"))}, nil, []example{
			{"abd", 0, "abd", true}, {"acd", 0, "acd", true}, {"abc", 0, "", false}, {"ad", 0, "", false}}},
		{"number", []*input.Rule{seq(pat("[0-9]+"), choiceR(blank(), seq(choiceR(str("e"), str("E")), choiceR(blank(), str("+"), str("-")), pat("[0-9]+"))))}, nil, []example{
			{"12", 0, "12", true}, {"12e", 0, "12", true}, {"12e3", 0, "12e3", true}, {"12E+34 +", 0, "12E+34", true}}},
		{"repeat is optional", []*input.Rule{seq(str("x"), repeat(str("y")))}, nil, []example{
			{"x", 0, "x", true}, {"xyyz", 0, "xyy", true}}},
		{"escaped group", []*input.Rule{pat(`([^x\\]|\\(.|\n))+`)}, nil, []example{
			{"abcx", 0, "abc", true}, {"abc\\0x", 0, "abc\\0", true}}},
		{"counted", []*input.Rule{pat(`a{2,3}`)}, nil, []example{
			{"a", 0, "", false}, {"aa", 0, "aa", true}, {"aaaa", 0, "aaa", true}}},
		{"open counted matches exactly n like the CLI", []*input.Rule{pat(`xa{2,}`)}, nil, []example{
			{"xaaaa", 0, "xaa", true}}},
		{"case insensitive", []*input.Rule{patf("select", "i")}, nil, []example{{"SeLeCt", 0, "SeLeCt", true}}},
		{"unicode properties", []*input.Rule{pat(`\p{L}+\P{L}+`), pat(`\p{White_Space}+\P{White_Space}+[\p{White_Space}]*`)}, nil, []example{
			{"  123   abc", 1, "  123   ", true}, {"ბΨƁ___ƀƔ", 0, "ბΨƁ___", true}}},
	}
	for _, c := range cases {
		g, err := Expand(toks(c.tokens...), c.seps)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, e := range c.examples {
			tok, text, found := simulate(g, e.in)
			if found != e.found || (found && (tok != e.tok || text != e.text)) {
				t.Errorf("%s: %q -> (%d, %q, %v), want (%d, %q, %v)", c.name, e.in, tok, text, found, e.tok, e.text, e.found)
			}
		}
	}
}

func TestImplicitPrecedence(t *testing.T) {
	g, err := Expand(toks(str("x"), pat("x"), immediate(str("x")), token(prec(3, str("x"))), immediate(pat("y")), token(str("z"))), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{2, 0, 3, 2, 1, 2}
	for i, v := range g.Variables {
		if v.ImplicitPrecedence != want[i] {
			t.Errorf("token %d implicit precedence %d, want %d", i, v.ImplicitPrecedence, want[i])
		}
	}
	if !g.Variables[2].IsImmediate || g.Variables[0].IsImmediate || g.Variables[5].IsImmediate {
		t.Errorf("immediate flags wrong: %+v", g.Variables)
	}
}

func TestExpandErrorsNameTheToken(t *testing.T) {
	cases := []struct {
		rule *input.Rule
		want string
	}{
		{choiceR(blank(), str("")), "matches the empty string"},
		{pat("^a"), "anchor"},
		{pat(`\p{Bogus}`), "Bogus"},
		{pat(`(a{1000}){1000}`), "too large"},
		{&input.Rule{Type: input.Symbol, Name: "x"}, "SYMBOL"},
	}
	for _, c := range cases {
		_, err := Expand([]TokenVariable{{Name: "bad_token", Rule: c.rule}}, nil)
		var te *TokenError
		if !errors.As(err, &te) || te.Token != "bad_token" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Expand(%v) error = %v, want token name and %q", c.rule.Type, err, c.want)
		}
	}
}
