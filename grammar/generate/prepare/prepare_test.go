package prepare

import (
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/input"
)

// dump renders a prepared grammar compactly: tokens, then one line per
// production with step metadata in brackets.
func dump(g *Grammar) string {
	var b strings.Builder
	name := func(s Symbol) string {
		switch s.Kind {
		case Terminal:
			return fmt.Sprintf("%q", g.Lexical.Variables[s.Index].Name)
		case NonTerminal:
			return g.Syntax.Variables[s.Index].Name
		case External:
			return "$" + g.Syntax.Externals[s.Index].Name
		}
		return "?"
	}
	for _, v := range g.Lexical.Variables {
		fmt.Fprintf(&b, "token %q %v\n", v.Name, v.Kind)
	}
	for _, v := range g.Syntax.Variables {
		for _, p := range v.Productions {
			fmt.Fprintf(&b, "%s(%v) ->", v.Name, v.Kind)
			for _, st := range p.Steps {
				b.WriteString(" " + name(st.Symbol))
				var meta []string
				if st.Prec.Kind != PrecNone {
					meta = append(meta, "prec="+st.Prec.String())
				}
				if st.Assoc != AssocNone {
					meta = append(meta, st.Assoc.String())
				}
				if st.Alias != nil {
					meta = append(meta, fmt.Sprintf("alias=%s/%t", st.Alias.Value, st.Alias.Named))
				}
				if st.Field != "" {
					meta = append(meta, "field="+st.Field)
				}
				if len(meta) > 0 {
					b.WriteString("[" + strings.Join(meta, ",") + "]")
				}
			}
			if p.DynamicPrecedence != 0 {
				fmt.Fprintf(&b, " dyn=%d", p.DynamicPrecedence)
			}
			b.WriteString("\n")
		}
	}
	for _, e := range g.Syntax.Extras {
		fmt.Fprintf(&b, "extra %s\n", name(e))
	}
	for _, s := range g.Lexical.Separators {
		fmt.Fprintf(&b, "separator %s %q\n", s.Type, s.Value)
	}
	for i := range g.Syntax.Variables {
		if a, ok := g.DefaultAliases[NonTerm(i)]; ok {
			fmt.Fprintf(&b, "default-alias %s %s\n", g.Syntax.Variables[i].Name, a.Value)
		}
	}
	for i := range g.Lexical.Variables {
		if a, ok := g.DefaultAliases[Term(i)]; ok {
			fmt.Fprintf(&b, "default-alias %q %s\n", g.Lexical.Variables[i].Name, a.Value)
		}
	}
	return b.String()
}

func prep(t *testing.T, src string) (*Grammar, error) {
	t.Helper()
	g, err := input.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return Prepare(g)
}

const (
	str = `{"type":"STRING","value":%q}`
	sym = `{"type":"SYMBOL","name":%q}`
)

func S(v string) string { return fmt.Sprintf(str, v) }
func Y(v string) string { return fmt.Sprintf(sym, v) }
func seq(m ...string) string {
	return `{"type":"SEQ","members":[` + strings.Join(m, ",") + `]}`
}
func choice(m ...string) string {
	return `{"type":"CHOICE","members":[` + strings.Join(m, ",") + `]}`
}
func rep(c string) string  { return `{"type":"REPEAT","content":` + c + `}` }
func rep1(c string) string { return `{"type":"REPEAT1","content":` + c + `}` }
func pat(v string) string  { return fmt.Sprintf(`{"type":"PATTERN","value":%q}`, v) }
func prec(kind string, v int, c string) string {
	return fmt.Sprintf(`{"type":%q,"value":%d,"content":%s}`, kind, v, c)
}
func field(n, c string) string { return fmt.Sprintf(`{"type":"FIELD","name":%q,"content":%s}`, n, c) }
func alias(v string, named bool, c string) string {
	return fmt.Sprintf(`{"type":"ALIAS","value":%q,"named":%t,"content":%s}`, v, named, c)
}
func grammar(extra string, rules ...string) string {
	return `{"name":"t","rules":{` + strings.Join(rules, ",") + `}` + extra + `}`
}
func R(name, body string) string { return fmt.Sprintf("%q:%s", name, body) }

func TestPrepare(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{
			name: "tokens are extracted in order; a rule that is one token takes its name",
			src: grammar(`,"extras":[{"type":"PATTERN","value":"\\s"}]`,
				R("program", rep(choice(Y("num"), Y("_kw"), S("+")))),
				R("num", pat("[0-9]+")),
				R("_kw", S("if"))),
			want: `token "+" anonymous
token "num" named
token "if" anonymous
program(named) -> program_repeat1
program(named) ->
_kw(hidden) -> "if"
program_repeat1(auxiliary) -> program_repeat1 program_repeat1
program_repeat1(auxiliary) -> "num"
program_repeat1(auxiliary) -> _kw
program_repeat1(auxiliary) -> "+"
separator PATTERN "\\s"
`,
		},
		{
			name: "a hidden rule whose body is a repeat becomes the repeat helper; repeats are shared",
			src: grammar(`,"extras":[]`,
				R("a", seq(S("x"), Y("_items"), rep1(S("y")))),
				R("_items", rep1(S("y"))),
			),
			want: `token "x" anonymous
token "y" anonymous
a(named) -> "x" _items a_repeat1
_items(auxiliary) -> _items _items
_items(auxiliary) -> "y"
a_repeat1(auxiliary) -> a_repeat1 a_repeat1
a_repeat1(auxiliary) -> "y"
`,
		},
		{
			name: "precedence spans fall back to the enclosing precedence at their last step",
			src: grammar(`,"extras":[]`,
				R("t", seq(Y("a"), prec("PREC_LEFT", 101, seq(Y("b"), choice(prec("PREC_RIGHT", 102, seq(Y("c"), Y("d"))), Y("e")), Y("f"))), Y("g"))),
				R("a", S("a")), R("b", S("b")), R("c", S("c")), R("d", S("d")), R("e", S("e")), R("f", S("f")), R("g", S("g"))),
			want: `token "a" named
token "b" named
token "c" named
token "d" named
token "e" named
token "f" named
token "g" named
t(named) -> "a" "b"[prec=101,Left] "c"[prec=102,Right] "d"[prec=101,Left] "f" "g"
t(named) -> "a" "b"[prec=101,Left] "e"[prec=101,Left] "f" "g"
`,
		},
		{
			name: "fields, aliases and dynamic precedence reach the steps; a symbol always aliased gets a default alias",
			src: grammar(`,"extras":[]`,
				R("t", seq(field("k", Y("id")), alias("op", false, S("=")), prec("PREC_DYNAMIC", -3, alias("value", true, Y("_v"))))),
				R("id", pat("[a-z]+")),
				R("_v", seq(Y("id"), Y("id")))),
			want: `token "=" anonymous
token "id" named
t(named) -> "id"[field=k] "=" _v dyn=-3
_v(hidden) -> "id" "id"
default-alias _v value
default-alias "=" op
`,
		},
		{
			name: "rules nothing reaches are dropped",
			src: grammar(`,"extras":[]`,
				R("t", S("x")), R("orphan", Y("t"))),
			want: `token "x" anonymous
t(named) -> "x"
`,
		},
		{
			name: "extras that name tokens stay tokens; plain patterns become separators",
			src: grammar(`,"extras":[{"type":"SYMBOL","name":"comment"},{"type":"PATTERN","value":"\\s"}]`,
				R("t", S("x")), R("comment", pat("#.*"))),
			want: `token "x" anonymous
token "comment" named
t(named) -> "x"
extra "comment"
separator PATTERN "\\s"
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := prep(t, tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(g); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestPrepareErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown rule name", grammar("", R("t", seq(S("x"), Y("nope")))), "rule `t`: undefined symbol `nope`"},
		{"empty-matching rule", grammar("", R("t", seq(S("x"), Y("e"))), R("e", rep(S("y")))), "rule `e`: matches the empty string"},
		{"empty string", grammar("", R("t", seq(S("x"), Y("e"))), R("e", seq(S(""), S("y")))), "rule `e`: contains an empty string"},
		{"hidden start rule", grammar("", R("_t", S("x"))), "rule `_t`: a grammar's start rule must be visible"},
		{"symbol inside token", grammar("", R("t", `{"type":"TOKEN","content":`+Y("t")+`}`)), "rule `t`: unexpected rule reference `t` inside token()"},
		{"recursive inline", grammar(`,"inline":["_i"]`, R("t", Y("_i")), R("_i", seq(S("a"), choice(Y("_i"), S("b"))))), "rule `_i`: cannot be inlined because it refers to itself"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prep(t, tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestInlineExpansion(t *testing.T) {
	g, err := prep(t, grammar(`,"extras":[],"inline":["_i","_j"]`,
		R("t", seq(S("a"), Y("_i"), S("b"))),
		R("_i", choice(seq(S("c"), S("d")), prec("PREC_DYNAMIC", -2, Y("_j")))),
		R("_j", S("e"))))
	if err != nil {
		t.Fatal(err)
	}
	p := g.Syntax.Variables[0].Productions[0]
	if got := g.Inlines.At(p, 0); got != nil {
		t.Errorf("nothing to inline at step 0, got %v", got)
	}
	var got []string
	for _, q := range g.Inlines.At(p, 1) {
		var names []string
		for _, s := range q.Steps {
			names = append(names, g.Lexical.Variables[s.Symbol.Index].Name)
		}
		got = append(got, fmt.Sprintf("%s dyn=%d", strings.Join(names, " "), q.DynamicPrecedence))
	}
	want := "a c d b dyn=0|a e b dyn=-2"
	if strings.Join(got, "|") != want {
		t.Errorf("inlined %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestMutuallyRecursiveInlines(t *testing.T) {
	_, err := prep(t, grammar(`,"extras":[],"inline":["_a","_b"]`,
		R("t", seq(S("x"), Y("_a"))),
		R("_a", choice(Y("_b"), S("y"))),
		R("_b", seq(Y("_a"), S("z")))))
	if err == nil || !strings.Contains(err.Error(), "inlining it leads back to itself") {
		t.Errorf("error %v, want an inline cycle error", err)
	}
}

func TestExternalsWordAndReserved(t *testing.T) {
	g, err := prep(t, grammar(`,"extras":[],"word":"id",
		"externals":[{"type":"SYMBOL","name":"indent"},{"type":"STRING","value":";"},{"type":"SYMBOL","name":"semi"}],
		"reserved":{"global":[{"type":"STRING","value":"if"}],"none":[]}`,
		R("t", seq(Y("indent"), S("if"), Y("id"), Y("semi"), S(";"))),
		R("id", pat("[a-z]+")),
		R("semi", S("::"))))
	if err != nil {
		t.Fatal(err)
	}
	ext := g.Syntax.Externals
	if len(ext) != 3 {
		t.Fatalf("externals %+v", ext)
	}
	if ext[0].Name != "indent" || ext[0].Internal != -1 {
		t.Errorf("undefined external: %+v", ext[0])
	}
	if ext[1].Name != ";" || ext[1].Internal < 0 || g.Lexical.Variables[ext[1].Internal].Name != ";" {
		t.Errorf("string external should twin the ';' token: %+v", ext[1])
	}
	if ext[2].Name != "semi" || ext[2].Internal < 0 || g.Lexical.Variables[ext[2].Internal].Name != "semi" {
		t.Errorf("external naming a token rule should twin it: %+v", ext[2])
	}
	if w := g.Syntax.Word; w < 0 || g.Lexical.Variables[w].Name != "id" {
		t.Errorf("word token %d", w)
	}
	sets := g.Syntax.ReservedWordSets
	if len(sets) != 2 || len(sets[0]) != 1 || g.Lexical.Variables[sets[0][0].Index].Name != "if" || len(sets[1]) != 0 {
		t.Errorf("reserved sets %+v", sets)
	}
}

func TestUnusedRulesLeaveTopLevelLists(t *testing.T) {
	g, err := prep(t, grammar(`,"extras":[],"conflicts":[["t","orphan"]],"inline":["orphan"],"supertypes":["orphan"],
		"precedences":[[{"type":"SYMBOL","name":"orphan"},{"type":"STRING","value":"p"}]]`,
		R("t", S("x")), R("orphan", S("y"))))
	if err != nil {
		t.Fatal(err)
	}
	s := g.Syntax
	if len(s.ExpectedConflicts) != 0 || len(s.Inline) != 0 || len(s.Supertypes) != 0 || len(s.PrecedenceOrderings) != 0 {
		t.Errorf("lists still mention the dropped rule: %+v %+v %+v %+v", s.ExpectedConflicts, s.Inline, s.Supertypes, s.PrecedenceOrderings)
	}
}
