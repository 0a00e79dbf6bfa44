package semantic_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

func unresolved(t *testing.T, src string) []string {
	t.Helper()
	file, diags := binding.Parse("t.leia", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("%q: syntax errors %v", src, diags)
	}
	f := semantic.Compute(file)
	var out []string
	for _, u := range f.Unresolved {
		out = append(out, u.Ident.Name)
	}
	sort.Strings(out)
	return out
}

// TestScopes pins the scoping rules the resolver implements.
func TestScopes(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"a body sees a later top-level name", "f := func() { return g() }\ng := func() { return 1 }\nprint(f)", nil},
		{"straight-line code does not", "print(y)\ny := 1", []string{"y"}},
		{"func declarations are hoisted", "print(h())\nfunc h() { return 1 }", nil},
		{"a block's names end with it", "if true { z := 1 }\nprint(z)", []string{"z"}},
		{"the right-hand side sees the outer name", "x := 1\nfunc k() { x := x + 1\nreturn x }\nprint(k)", nil},
		{"loop variables belong to the loop", "for i := 1; i < 2; i++ { print(i) }\nprint(i)", []string{"i"}},
		{"range variables too", "for k, v := range [1] { print(k, v) }\nprint(v)", []string{"v"}},
		{"eval only in evaluate", "eval.metric(\"a\", 1)\nevaluate \"c\" { eval.metric(\"b\", 2) }", []string{"eval"}},
		{"evaluate bodies run after the top level", "evaluate \"c\" { print(late) }\nlate := 1", nil},
		{"legacy flows get their fields as locals", "agent a(topic) { system: \"s\"  user: topic } flow {\n  return system, topic, model\n}", []string{"model"}},
		{"imports bind their last path element", "import \"json\"\nimport \"go:net/http\"\nimport p \"path\"\nprint(json, http, p)", nil},
		{"quote bodies are functions", "q := quote { print(later) }\nlater := 1", nil},
		{"select cases declare their receive", "select {\ncase v, ok := <-make(chan):\n  print(v, ok)\n}\nprint(ok)", []string{"ok"}},
	}
	for _, c := range cases {
		if got := unresolved(t, c.src); !slices.Equal(got, c.want) {
			t.Errorf("%s: unresolved %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFacts: both dialect styles lower to tools and agents, names bound
// once follow to their definitions, and const writes are recorded.
func TestFacts(t *testing.T) {
	src := `//leia:requires docs.read
tool find(q) { return q, nil }
t := tool { name: "t", fn: func() { return 1, nil }, requires: ["a.b"] }
u := llm.tool("u", func() { return 1, nil })
alias := t
a := agent { name: "a", model: "m", tools: [find, alias, u] }
const c := 1
c = 2
print(a)
`
	file, _ := binding.Parse("t.leia", []byte(src))
	f := semantic.Compute(file)
	if len(f.Tools) != 3 || len(f.Agents) != 1 {
		t.Fatalf("%d tools, %d agents; want 3 and 1", len(f.Tools), len(f.Agents))
	}
	var names []string
	for _, tl := range f.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"find", "t", "u"}) {
		t.Errorf("tool names %v", names)
	}
	if got := f.Tools[1].Requires; len(got) != 1 || got[0].Name != "a.b" {
		t.Errorf("t requires %v", got)
	}
	if len(f.ConstWrites) != 1 || f.ConstWrites[0].Target.Name != "c" {
		t.Errorf("const writes %+v", f.ConstWrites)
	}
	owners := 0
	for _, o := range f.Owners {
		if o.Label == "agent a" {
			owners++
		}
	}
	if owners != 1 {
		t.Errorf("agent a owns %d tables, want 1", owners)
	}
}
