package stdlib

import "testing"

func TestLookup(t *testing.T) {
	cases := []struct {
		path     string
		kind     Kind
		min, max int
	}{
		{"print", Function, 0, Unbounded},
		{"tostring", Function, 1, 1},
		{"assert", Function, 1, Unbounded},
		{"string", Module, 0, 0},
		{"string.find", Function, 2, 4},
		{"string.split", Function, 1, 2},
		{"llm.turn", Function, 1, 1},
		{"llm.agent", Function, 2, 4},
		{"math.pi", Value, 0, 0},
		{"eval.case", Function, 2, 2},
	}
	for _, c := range cases {
		e := LookupPath(c.path)
		if e == nil {
			t.Errorf("%s: not found", c.path)
			continue
		}
		if e.Kind != c.kind || e.MinArgs != c.min || e.MaxArgs != c.max {
			t.Errorf("%s: got %v %d..%d, want %v %d..%d", c.path, e.Kind, e.MinArgs, e.MaxArgs, c.kind, c.min, c.max)
		}
	}
	for _, missing := range []string{"printf", "string.nope", "nope.x", "llm" + ".x"} {
		if LookupPath(missing) != nil {
			t.Errorf("%s: found, want nil", missing)
		}
	}
	if e := Lookup("eval"); e == nil || e.Scope != EvaluateOnly {
		t.Errorf("eval: got %+v, want an EvaluateOnly module", e)
	}
	if e := LookupPath("llm.turn"); !e.ErrorResult || e.Results != 2 {
		t.Errorf("llm.turn: got results %d error %v, want a (value, err) pair", e.Results, e.ErrorResult)
	}
}

func TestGlobalsSortedAndNamed(t *testing.T) {
	g := Globals()
	if len(g) < 40 {
		t.Fatalf("only %d globals", len(g))
	}
	for i, e := range g {
		if i > 0 && g[i-1].Name >= e.Name {
			t.Errorf("not sorted: %s before %s", g[i-1].Name, e.Name)
		}
		for name, m := range e.Members {
			if m.Name != e.Name+"."+name {
				t.Errorf("member %s of %s is named %s", name, e.Name, m.Name)
			}
		}
	}
}

func TestSignature(t *testing.T) {
	for path, want := range map[string]string{
		"string.find":     "string.find(s: string, pattern: string, init?: integer, plain?: boolean) -> start: integer?, end: integer?",
		"print":           "print(values...: any)",
		"os.clock":        "os.clock() -> number",
		"llm.handoff":     "llm.handoff(agent: function, opts?: table) -> table",
		"eval.load_jsonl": "eval.load_jsonl(path: string) -> table",
	} {
		if got := LookupPath(path).Signature(); got != want {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
	e := LookupPath("string.find")
	if p := e.Params[2]; p.Name != "init" || p.Type != "integer" || !p.Optional || p.Variadic {
		t.Errorf("string.find's init: %+v", p)
	}
	if e.Results != 2 || e.Doc == "" {
		t.Errorf("string.find: %d results, doc %q", e.Results, e.Doc)
	}
}

func TestResultType(t *testing.T) {
	for _, c := range []struct {
		path string
		i    int
		want string
	}{
		{"string.find", 0, "integer?"},
		{"string.find", 1, "integer?"},
		{"string.find", 2, ""},
		{"string.upper", 0, "string"},
		{"json.decode", 1, "string?"},
		{"print", 0, ""},
		{"pairs", 0, "function"},
	} {
		if got := LookupPath(c.path).ResultType(c.i); got != c.want {
			t.Errorf("%s result %d: got %q, want %q", c.path, c.i, got, c.want)
		}
	}
}

// TestLookupHandsOutTheListedEntries: an entry made at its first lookup
// is the one Globals lists, whichever comes first, for every global.
func TestLookupHandsOutTheListedEntries(t *testing.T) {
	first := Lookup("print")
	if first == nil || first.Name != "print" || first.Kind != Function {
		t.Fatalf("Lookup(print) = %+v", first)
	}
	n := 0
	for _, e := range Globals() {
		if got := Lookup(e.Name); got != e {
			t.Errorf("Lookup(%q) is not the entry Globals lists", e.Name)
		}
		n++
	}
	if n < 60 || Lookup("no_such_global") != nil {
		t.Errorf("%d globals; Lookup of an unknown name %v", n, Lookup("no_such_global"))
	}
	if m := LookupPath("string.find"); m == nil || m != Lookup("string").Member("find") {
		t.Errorf("LookupPath(string.find) = %v", m)
	}
}
