package lex

import (
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
)

// run lexes one token of s from entry state as the runtime would: the last
// accepting state wins, SKIP moves the token start, EOF takes the eof action.
func run(tb *Table, entry int, s string) (tok int, text string) {
	tok, start, end := runSpan(tb, entry, s)
	if tok == AcceptNone {
		return tok, ""
	}
	return tok, string([]rune(s)[start:end])
}

// runSpan is run reporting the token's rune span.
func runSpan(tb *Table, entry int, s string) (tok, tokStart, end int) {
	rs := []rune(s)
	state, start, pos := entry, 0, 0
	tok, end = AcceptNone, -1
	for steps := 0; steps < 1000; steps++ {
		st := &tb.States[state]
		if st.Accept != AcceptNone {
			tok, tokStart, end = st.Accept, start, pos
		}
		if pos == len(rs) {
			if st.EOF && st.EOFState != state {
				state = st.EOFState
				continue
			}
			break
		}
		next := -1
		for _, adv := range st.Advances {
			if adv.Chars.Contains(rs[pos]) {
				next = adv.State
				if !adv.InMainToken {
					start = pos + 1
				}
				break
			}
		}
		if next < 0 {
			break
		}
		pos++
		state = next
	}
	return tok, tokStart, end
}

func buildOne(t *testing.T, g *Grammar, inputs []LexStateInput, follow []ir.TokenSet, word int, kw ir.TokenSet) (*Table, *Table, []int) {
	t.Helper()
	if follow == nil {
		follow = make([]ir.TokenSet, len(g.Variables))
	}
	m := NewConflictMap(g, follow)
	var states []ir.TokenSet
	for _, in := range inputs {
		states = append(states, in.Tokens)
	}
	c := NewCoincidentIndex(len(g.Variables), states)
	return BuildLexTables(g, inputs, word, kw, m, c)
}

func TestLexPreferenceRules(t *testing.T) {
	ws := []*input.Rule{pat(`\s`)}
	cases := []struct {
		name   string
		seps   []*input.Rule
		tokens []*input.Rule
		text   string
		tok    int
		match  string
	}{
		{"string literal beats pattern at equal length", ws, []*input.Rule{pat("[a-z]+"), str("if")}, "if ", 1, "if"},
		{"longer match beats the literal", ws, []*input.Rule{pat("[a-z]+"), str("if")}, "iff ", 0, "iff"},
		{"longest of two literals", ws, []*input.Rule{str("="), str("==")}, "== ", 1, "=="},
		{"earlier index breaks exact ties", ws, []*input.Rule{pat("[a-z]+"), pat("[a-c]+")}, "abc", 0, "abc"},
		{"in-token precedence beats length", ws, []*input.Rule{token(prec(1, str("a"))), pat("a[b]+")}, "abb", 0, "a"},
		{"equal precedence: continuing wins", ws, []*input.Rule{str("a"), pat("a[b]+")}, "abb", 1, "abb"},
		{"immediate literal outranks a plain one", ws, []*input.Rule{pat("x"), immediate(pat("x"))}, "x", 1, "x"},
		{"separators are skipped", ws, []*input.Rule{str("if")}, "  \n if", 0, "if"},
		{"immediate tokens skip nothing", ws, []*input.Rule{immediate(str("if"))}, " if", AcceptNone, ""},
		{"no separator skip once a token can be empty", ws, []*input.Rule{pat("b*"), str("c")}, " c", 0, ""},
		{"separators present: only continuations of the accepted token", ws, []*input.Rule{pat("b*"), str("c")}, "bb", 0, "bb"},
		{"separators present: other tokens dropped", ws, []*input.Rule{pat("b*"), str("c")}, "c", 0, ""},
	}
	for _, c := range cases {
		g := mustExpand(t, c.seps, c.tokens...)
		var all ir.TokenSet
		for i := range g.Variables {
			all.Add(i)
		}
		main, _, of := buildOne(t, g, []LexStateInput{{Tokens: all}}, nil, -1, ir.TokenSet{})
		tok, text := run(main, of[0], c.text)
		if tok != c.tok || (tok != AcceptNone && text != c.match) {
			t.Errorf("%s: %q lexed as (%d, %q), want (%d, %q)", c.name, c.text, tok, text, c.tok, c.match)
		}
	}
}

func TestLexEOF(t *testing.T) {
	g := mustExpand(t, []*input.Rule{pat(`\s`)}, str("x"))
	main, _, of := buildOne(t, g, []LexStateInput{{Tokens: set(0), EOF: true}, {EOF: true}}, nil, -1, ir.TokenSet{})
	for _, c := range []struct {
		entry int
		text  string
		want  int
	}{{of[0], "", AcceptEOF}, {of[0], "  ", AcceptEOF}, {of[0], " x", 0}, {of[1], "", AcceptEOF}} {
		if tok, _ := run(main, c.entry, c.text); tok != c.want {
			t.Errorf("entry %d %q: got %d want %d", c.entry, c.text, tok, c.want)
		}
	}
	if of[0] != of[1] {
		t.Errorf("an EOF-only state merges with any other: %v", of)
	}
	st := main.States[of[0]]
	if !st.EOF || main.States[st.EOFState].Accept != AcceptEOF {
		t.Errorf("entry state lacks an eof action to an EOF-accepting state: %+v", st)
	}
}

func TestLexStateMerging(t *testing.T) {
	// 0 "+", 1 "+=", 2 "=".
	g := mustExpand(t, nil, str("+"), str("+="), str("="))
	inputs := []LexStateInput{{}, {Tokens: set(0, 1)}, {Tokens: set(0)}, {Tokens: set(2)}}

	// Nothing follows "+": the states share one lex state.
	_, _, of := buildOne(t, g, inputs, nil, -1, ir.TokenSet{})
	if of[1] != of[2] || of[2] != of[3] {
		t.Errorf("lex states %v, want 1, 2 and 3 merged", of)
	}
	// "=" may follow "+": lexing "+=" where only "+" is valid would be wrong.
	follow := []ir.TokenSet{set(2), {}, {}}
	_, _, of = buildOne(t, g, inputs, follow, -1, ir.TokenSet{})
	if of[1] == of[2] {
		t.Errorf("lex states %v: states 1 and 2 must not merge", of)
	}
}

func TestMinimizationMergesEquivalentStates(t *testing.T) {
	// One token /ab|cb/: the states after a and after c are equivalent.
	g := mustExpand(t, nil, pat("ab|cb"))
	main, _, _ := buildOne(t, g, []LexStateInput{{Tokens: set(0)}}, nil, -1, ir.TokenSet{})
	if len(main.States) != 3 {
		t.Errorf("/ab|cb/ has %d states, want 3", len(main.States))
	}
	// Two tokens "ab", "cb": the states accept different tokens after b.
	g = mustExpand(t, nil, str("ab"), str("cb"))
	main, _, _ = buildOne(t, g, []LexStateInput{{Tokens: set(0, 1)}}, nil, -1, ir.TokenSet{})
	if len(main.States) != 5 {
		t.Errorf("\"ab\" \"cb\" have %d states, want 5", len(main.States))
	}
}

func TestKeywordTable(t *testing.T) {
	g := mustExpand(t, []*input.Rule{pat(`\s`)}, pat("[a-z]+"), str("if"), str("in"), str("+"))
	kw := set(1, 2)
	main, kwt, of := buildOne(t, g, []LexStateInput{{Tokens: set(0, 1, 2, 3)}}, nil, 0, kw)
	// The main lexer sees the word token instead of the keywords.
	if tok, _ := run(main, of[0], "if"); tok != 0 {
		t.Errorf("main lexer returned %d for \"if\", want the word token", tok)
	}
	for _, c := range []struct {
		text string
		want int
	}{{"if", 1}, {"in", 2}, {"i", AcceptNone}, {"x", AcceptNone}} {
		if tok, _ := run(kwt, 0, c.text); tok != c.want {
			t.Errorf("keyword lexer %q -> %d, want %d", c.text, tok, c.want)
		}
	}
}
