package lr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

func R(name, body string) string { return fmt.Sprintf("%q:%s", name, body) }
func S(v string) string          { return fmt.Sprintf(`{"type":"STRING","value":%q}`, v) }
func Y(v string) string          { return fmt.Sprintf(`{"type":"SYMBOL","name":%q}`, v) }
func seq(m ...string) string     { return `{"type":"SEQ","members":[` + strings.Join(m, ",") + `]}` }
func choice(m ...string) string  { return `{"type":"CHOICE","members":[` + strings.Join(m, ",") + `]}` }
func rep(c string) string        { return `{"type":"REPEAT","content":` + c + `}` }
func prec(kind string, v any, c string) string {
	b, _ := jsonValue(v)
	return fmt.Sprintf(`{"type":%q,"value":%s,"content":%s}`, kind, b, c)
}

func jsonValue(v any) (string, error) {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s), nil
	}
	return fmt.Sprint(v), nil
}

func build(t *testing.T, extra string, rules ...string) (*prepare.Grammar, *Table, error) {
	t.Helper()
	src := `{"name":"t","extras":[],"rules":{` + strings.Join(rules, ",") + `}` + extra + `}`
	in, err := input.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g, err := prepare.Prepare(in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(g)
	if err != nil {
		return g, nil, err
	}
	return g, r.Table, nil
}

func terminal(g *prepare.Grammar, name string) Symbol {
	for i, v := range g.Lexical.Variables {
		if v.Name == name {
			return prepare.Term(i)
		}
	}
	panic("no token " + name)
}

func nonTerminal(g *prepare.Grammar, name string) Symbol {
	for i, v := range g.Syntax.Variables {
		if v.Name == name {
			return prepare.NonTerm(i)
		}
	}
	panic("no rule " + name)
}

// entriesOn returns the action lists on lookahead la that reduce rule r.
func entriesOn(tab *Table, la, r Symbol) [][]Action {
	var out [][]Action
	for _, s := range tab.States {
		e := s.Terminal[la]
		if e == nil {
			continue
		}
		for _, a := range e.Actions {
			if a.Kind == Reduce && a.Symbol == r {
				out = append(out, e.Actions)
				break
			}
		}
	}
	return out
}

func hasKind(actions []Action, k ActionKind) bool {
	for _, a := range actions {
		if a.Kind == k {
			return true
		}
	}
	return false
}

// arith is e: sum | product | num with the given wrappers for the
// binary rules.
func arith(sum, product string) []string {
	return []string{
		R("e", choice(Y("sum"), Y("product"), Y("num"))),
		R("sum", sum),
		R("product", product),
		R("num", `{"type":"PATTERN","value":"[0-9]+"}`),
	}
}

func TestPrecedenceAndAssociativity(t *testing.T) {
	plus := seq(Y("e"), S("+"), Y("e"))
	times := seq(Y("e"), S("*"), Y("e"))
	tests := []struct {
		name  string
		extra string
		rules []string
		// check gets the grammar and table; it returns a failure or "".
		check func(g *prepare.Grammar, tab *Table) string
	}{
		{"left associativity reduces", "", arith(prec("PREC_LEFT", 1, plus), prec("PREC_LEFT", 2, times)),
			func(g *prepare.Grammar, tab *Table) string {
				es := entriesOn(tab, terminal(g, "+"), nonTerminal(g, "sum"))
				if len(es) == 0 {
					return "no reduce of sum on '+'"
				}
				for _, e := range es {
					if len(e) != 1 {
						return fmt.Sprintf("sum on '+' kept %d actions", len(e))
					}
				}
				return ""
			}},
		{"right associativity shifts", "", arith(prec("PREC_RIGHT", 1, plus), prec("PREC_LEFT", 2, times)),
			func(g *prepare.Grammar, tab *Table) string {
				if es := entriesOn(tab, terminal(g, "+"), nonTerminal(g, "sum")); len(es) != 0 {
					return fmt.Sprintf("sum reduced on '+' in %d states", len(es))
				}
				return ""
			}},
		{"higher precedence wins both ways", "", arith(prec("PREC_LEFT", 1, plus), prec("PREC_LEFT", 2, times)),
			func(g *prepare.Grammar, tab *Table) string {
				if es := entriesOn(tab, terminal(g, "*"), nonTerminal(g, "sum")); len(es) != 0 {
					return "sum reduced before '*'"
				}
				es := entriesOn(tab, terminal(g, "+"), nonTerminal(g, "product"))
				if len(es) == 0 || hasKind(es[0], Shift) {
					return "product not reduced before '+'"
				}
				return ""
			}},
		{"named precedences follow the precedences list", `,"precedences":[[` + S("times") + `,` + S("plus") + `]]`,
			arith(prec("PREC_LEFT", "plus", plus), prec("PREC_LEFT", "times", times)),
			func(g *prepare.Grammar, tab *Table) string {
				if es := entriesOn(tab, terminal(g, "*"), nonTerminal(g, "sum")); len(es) != 0 {
					return "sum reduced before '*'"
				}
				if es := entriesOn(tab, terminal(g, "+"), nonTerminal(g, "product")); len(es) == 0 {
					return "product not reduced before '+'"
				}
				return ""
			}},
		{"a declared conflict keeps both actions", `,"conflicts":[["sum"]]`, arith(plus, prec("PREC_LEFT", 2, times)),
			func(g *prepare.Grammar, tab *Table) string {
				es := entriesOn(tab, terminal(g, "+"), nonTerminal(g, "sum"))
				if len(es) == 0 || !hasKind(es[0], Shift) || es[0][len(es[0])-1].Kind != Shift {
					return fmt.Sprintf("want reduce then shift, got %v", es)
				}
				return ""
			}},
		{"repeat helpers keep a ShiftRepeat", "", []string{R("list", rep(Y("item"))), R("item", S("x"))},
			func(g *prepare.Grammar, tab *Table) string {
				for _, s := range tab.States {
					for _, e := range s.Terminal {
						if last := e.Actions[len(e.Actions)-1]; last.Kind == Shift && last.Repetition && hasKind(e.Actions, Reduce) {
							return ""
						}
					}
				}
				return "no reduce + SHIFT_REPEAT entry"
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, tab, err := build(t, tc.extra, tc.rules...)
			if err != nil {
				t.Fatal(err)
			}
			if msg := tc.check(g, tab); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestConflictErrors(t *testing.T) {
	plus := seq(Y("e"), S("+"), Y("e"))
	tests := []struct {
		name  string
		rules []string
		want  []string
	}{
		{"same precedence without associativity", arith(plus, prec("PREC_LEFT", 2, seq(Y("e"), S("*"), Y("e")))), []string{
			"Unresolved conflict for symbol sequence:\n\n  e  '+'  e  •  '+'  …",
			"  1:  (sum  e  '+'  e)  •  '+'  …\n",
			"  2:  e  '+'  (sum  e  •  '+'  e)\n",
			"  1:  Specify a left or right associativity in `sum`\n",
			"  2:  Add a conflict for these rules: `sum`\n",
		}},
		{"two rules competing", []string{
			R("s", choice(seq(Y("a"), S("x")), seq(Y("b"), S("x")))),
			R("a", S("y")), R("b", S("y"))}, []string{
			"  'y'  •  'x'  …",
			"(a  'y')  •  'x'  …",
			"(b  'y')  •  'x'  …",
			"Specify a higher precedence in `a` than in the other rules.",
			"Specify a higher precedence in `b` than in the other rules.",
			"Add a conflict for these rules: `a`, `b`",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := build(t, "", tc.rules...)
			if err == nil {
				t.Fatal("no conflict reported")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message lacks %q:\n%s", w, err)
				}
			}
		})
	}
}

type fakeRelations struct{ conflict bool }

func (f fakeRelations) DoesConflict(i, j int) bool { return f.conflict && i != j }
func (f fakeRelations) DoesOverlap(i, j int) bool  { return f.conflict && i != j }

func TestErrorStateNumberingAndMinimization(t *testing.T) {
	g, tab, err := build(t, `,"word":"id"`,
		R("program", rep(choice(Y("stmt"), Y("id")))),
		R("stmt", seq(S("let"), Y("id"), S("="), Y("id"))),
		R("id", `{"type":"PATTERN","value":"[a-z]+"}`))
	if err != nil {
		t.Fatal(err)
	}
	before := len(tab.States)
	var all ir.TokenSet
	for i := range g.Lexical.Variables {
		all.Add(i)
	}
	PopulateErrorState(tab, g.Syntax, all)
	if e := tab.States[0].Terminal[prepare.EndSymbol]; e == nil || e.Actions[0].Kind != Recover || e.Reusable {
		t.Errorf("state 0 lacks a non-reusable Recover on EOF: %+v", e)
	}
	PopulateUsedSymbols(tab, g.Syntax, len(g.Lexical.Variables))
	if tab.Symbols[0] != prepare.EndSymbol || tab.Symbols[1] != terminal(g, "id") {
		t.Errorf("EOF then the word token must come first, got %v", tab.Symbols[:2])
	}
	Minimize(tab, g, fakeRelations{}, ir.TokenSet{})
	if len(tab.States) >= before {
		t.Errorf("minimization kept %d of %d states", len(tab.States), before)
	}
	for i := 3; i < len(tab.States); i++ {
		size := func(s *State) int { return len(s.Terminal) + len(s.NonTerminal) }
		if size(tab.States[i]) > size(tab.States[i-1]) {
			t.Errorf("state %d is larger than state %d", i, i-1)
		}
	}
	MarkFragileTokens(tab, fakeRelations{conflict: true})
	PopulateExternalLexStates(tab, g.Syntax)
	if len(tab.ExternalLexStates) != 1 {
		t.Errorf("no externals, want only the empty row, got %v", tab.ExternalLexStates)
	}
}

// eofAsToken0 makes only lexical token 0 conflict with anything.
type eofAsToken0 struct{}

func (eofAsToken0) DoesConflict(i, j int) bool { return i == 0 && j != 0 }
func (eofAsToken0) DoesOverlap(i, j int) bool  { return false }

// The CLI checks end-of-input against other tokens as if it were lexical
// token 0; states that differ only in EOF versus '}' must stay apart when
// token 0 conflicts.
func TestMinimizeTreatsEOFAsToken0(t *testing.T) {
	for _, tc := range []struct {
		rel   TokenRelations
		split bool
	}{{eofAsToken0{}, true}, {fakeRelations{}, false}} {
		g, tab, err := build(t, "",
			R("program", seq(S("begin"), rep(Y("item")))),
			R("item", choice(seq(S("{"), rep(Y("item")), S("}")), S("x"))))
		if err != nil {
			t.Fatal(err)
		}
		PopulateErrorState(tab, g.Syntax, ir.TokenSet{})
		PopulateUsedSymbols(tab, g.Syntax, len(g.Lexical.Variables))
		Minimize(tab, g, tc.rel, ir.TokenSet{})
		item := nonTerminal(g, "item")
		n := 0
		for _, s := range tab.States {
			for _, e := range s.Terminal {
				if a := e.Actions[0]; a.Kind == Reduce && a.Symbol == item && a.ChildCount == 1 {
					n++
					break
				}
			}
		}
		if got := n > 1; got != tc.split {
			t.Errorf("%T: %d states reduce after 'x', want split=%t", tc.rel, n, tc.split)
		}
	}
}

func TestUnnecessaryConflictWarning(t *testing.T) {
	src := `{"name":"t","extras":[],"conflicts":[["a","b"]],"rules":{` +
		R("s", choice(Y("a"), Y("b"))) + "," + R("a", S("x")) + "," + R("b", S("y")) + `}}`
	in, err := input.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g, err := prepare.Prepare(in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "[`a`, `b`] never arises") {
		t.Errorf("warnings %q", r.Warnings)
	}
	// A needed conflict gives no warning.
	_, tab, err := build(t, `,"conflicts":[["sum"]]`, arith(seq(Y("e"), S("+"), Y("e")), S("*"))...)
	if err != nil || tab == nil {
		t.Fatal(err)
	}
}

// States that differ in an external token never merge, whatever the
// lexical relations say: the scanner's valid-symbol set would change.
func TestMinimizeKeepsExternalLookaheadsApart(t *testing.T) {
	g, tab, err := build(t, `,"externals":[{"type":"SYMBOL","name":"open"},{"type":"SYMBOL","name":"close"}]`,
		R("program", seq(S("begin"), rep(Y("item")))),
		R("item", choice(seq(Y("open"), rep(Y("item")), Y("close")), S("x"))))
	if err != nil {
		t.Fatal(err)
	}
	PopulateErrorState(tab, g.Syntax, ir.TokenSet{})
	PopulateUsedSymbols(tab, g.Syntax, len(g.Lexical.Variables))
	Minimize(tab, g, fakeRelations{}, ir.TokenSet{})
	item := nonTerminal(g, "item")
	n := 0
	for _, s := range tab.States {
		for _, e := range s.Terminal {
			if a := e.Actions[0]; a.Kind == Reduce && a.Symbol == item && a.ChildCount == 1 {
				n++
				break
			}
		}
	}
	if n != 2 {
		t.Errorf("%d states reduce item -> 'x', want 2 (EOF and the external 'close' kept apart)", n)
	}
	PopulateExternalLexStates(tab, g.Syntax)
	if len(tab.ExternalLexStates) < 3 {
		t.Errorf("external lex states %v, want the empty row plus distinct sets", tab.ExternalLexStates)
	}
}
