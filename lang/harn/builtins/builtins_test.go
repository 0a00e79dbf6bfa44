package builtins

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/types"
)

func TestSpecParses(t *testing.T) {
	for _, err := range SpecErrors() {
		t.Error(err)
	}
	if n := len(All()); n < 800 {
		t.Errorf("the table has %d builtins; the standard library has more than 800", n)
	}
}

// TestEveryEntryIsDocumented: every builtin and global has a signature
// (parameters and result typed) and a doc line, written as a sentence.
func TestEveryEntryIsDocumented(t *testing.T) {
	for _, b := range All() {
		if b.Signature() == nil || b.Result == nil || b.ResultText == "" {
			t.Errorf("%s has no signature", b.Name)
		}
		for _, p := range b.Params {
			if p.Type == nil || p.TypeText == "" || p.Name == "" {
				t.Errorf("%s: parameter %q has no type", b.Name, p.Name)
			}
		}
		checkDoc(t, b.Name, b.Doc)
		if b.Category == "" {
			t.Errorf("%s has no category", b.Name)
		}
	}
	for _, g := range Globals() {
		if g.Type == nil {
			t.Errorf("value %s has no type", g.Name)
		}
		checkDoc(t, g.Name, g.Doc)
	}
}

func checkDoc(t *testing.T, name, doc string) {
	t.Helper()
	switch {
	case doc == "":
		t.Errorf("%s has no doc line", name)
	case !strings.HasSuffix(doc, "."):
		t.Errorf("%s: doc line %q does not end with a period", name, doc)
	case strings.ToUpper(doc[:1]) != doc[:1]:
		t.Errorf("%s: doc line %q does not start with a capital", name, doc)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		params []string
		result string
	}{
		{"snake_to_camel", []string{"text: string"}, "string"},
		{"read_file", []string{"path: string"}, "string"},
		{"env", []string{"name: string"}, "string | nil"},
		{"unreachable", []string{"value?: any"}, "never"},
		{"path_join", []string{"...parts: any"}, "string"},
		{"stream.map", []string{"source: any", "f: closure"}, "stream"},
		{"event_log.emit", []string{"topic: string", "kind: string", "payload?: any", "headers?: dict"}, "int"},
	}
	for _, tt := range tests {
		b := Lookup(tt.name)
		if b == nil {
			t.Errorf("Lookup(%q) = nil", tt.name)
			continue
		}
		var got []string
		for _, p := range b.Params {
			got = append(got, p.Label())
		}
		if !slices.Equal(got, tt.params) || b.ResultText != tt.result {
			t.Errorf("%s = %s, want params %v result %s", tt.name, b, tt.params, tt.result)
		}
	}
	if Lookup("definitely_not_a_builtin") != nil || Lookup("") != nil {
		t.Error("Lookup of an unknown name must be nil")
	}
}

func TestSignatureTypes(t *testing.T) {
	sig := Lookup("substring").Signature()
	if len(sig.Params) != 3 || sig.Params[0].Optional || !sig.Params[2].Optional || !types.IsBasic(sig.Result, types.String) {
		t.Errorf("substring signature = %s", sig)
	}
	if s := Lookup("format").Signature(); !s.Variadic {
		t.Errorf("format must be variadic: %s", s)
	}
	if s := Lookup("env").Signature(); !types.IsOptional(s.Result) {
		t.Errorf("env must return an optional string: %s", s)
	}
	// Named types: a channel is a nominal handle, an agent a shape.
	ch := Lookup("channel").Result
	if types.Assignable(types.IntType, ch) || !types.Assignable(ch, Lookup("send").Params[0].Type) {
		t.Errorf("channel type %s: an int must not fit, a channel must", ch)
	}
	ag := Lookup("agent_config").Params[0].Type
	fake := types.NewRecord(types.Field{Name: "name", Type: types.StringType})
	if types.Assignable(fake, ag) || !types.Assignable(Lookup("agent").Result, ag) {
		t.Errorf("agent type %s", types.Describe(ag))
	}
}

func TestNamespaces(t *testing.T) {
	for _, ns := range []string{"stream", "event_log", "workflow"} {
		if !IsNamespace(ns) || len(Members(ns)) == 0 {
			t.Errorf("%s is not a namespace", ns)
		}
		for _, m := range Members(ns) {
			if m.Namespace != ns || m.Name != ns+"."+m.Member {
				t.Errorf("member %s of %s: namespace %q member %q", m.Name, ns, m.Namespace, m.Member)
			}
		}
	}
	if !slices.Contains(Namespaces(), "stream") || IsNamespace("read_file") {
		t.Errorf("namespaces = %v", Namespaces())
	}
}

func TestNameRules(t *testing.T) {
	for _, name := range []string{"hostlib_fs_read", "__internal_thing", "skills", "argv", "pi", "stream", "len", "Ok", "None"} {
		if !Resolves(name) {
			t.Errorf("%s must resolve", name)
		}
	}
	for _, name := range []string{"hostlibx", "_private", "nonexistent_function", "Stream"} {
		if Resolves(name) {
			t.Errorf("%s must not resolve", name)
		}
	}
}

func TestCapabilities(t *testing.T) {
	needs := func(name string, c Capability) bool { return slices.Contains(Lookup(name).Needs, c) }
	if !needs("read_file", FS) || !needs("exec", Process) || !needs("http_get", Net) || !needs("env", Env) || !needs("llm_call", LLM) {
		t.Error("capabilities of read_file, exec, http_get, env, llm_call")
	}
	if len(Lookup("len").Needs) != 0 {
		t.Error("len needs no capability")
	}
}

func TestSortedAndCategorised(t *testing.T) {
	names := make([]string, 0, len(All()))
	cats := map[string]bool{}
	for _, c := range Categories() {
		cats[c.ID] = true
	}
	for _, b := range All() {
		names = append(names, b.Name)
		if !cats[b.Category] {
			t.Errorf("%s: unknown category %s", b.Name, b.Category)
		}
	}
	if !slices.IsSorted(names) {
		t.Error("All() is not sorted by name")
	}
}

// TestSpecErrorsAreReported feeds malformed lines to the parser.
func TestSpecErrorsAreReported(t *testing.T) {
	tests := []struct{ src, want string }{
		{"f() -> int\n    Doc.\n", "before the first category"},
		{"## c: C\nf( -> int\n    Doc.\n", "unbalanced"},
		{"## c: C\nf() -> nosuch\n    Doc.\n", "unknown type nosuch"},
		{"## c: C\nf(a?: int, b: int) -> int\n    Doc.\n", "required parameter b after an optional"},
		{"## c: C\nf(...a: int, b: int) -> int\n    Doc.\n", "rest parameter must be last"},
		{"## c: C\nf() -> int\n", "no doc line"},
		{"## c: C\nf() -> int\n    Doc.\nf() -> int\n    Doc.\n", "listed twice"},
		{"## c: C\nf() -> int  [needs teleport]\n    Doc.\n", "unknown capability"},
		{"## c: C\nvalue x\n    Doc.\n", "value name: Type"},
		{"    Doc.\n", "doc line without an entry"},
		{"## c: C\nmethod f() -> int\n    Doc.\n", "needs `kind.name`"},
		{"## c: C\nmethod list.f() -> int  [aliases g]\n    Doc.\nmethod list.g() -> int\n    Doc.\n", "list.g listed twice"},
		{"## c: C\nproperty list: int\n    Doc.\n", "property kind.name: Type"},
		{"## c: C\nf() -> int  [aliases g]\n    Doc.\n", "only methods and properties have aliases"},
		{"inherit range\n", "inherit kind: parent"},
	}
	for _, tt := range tests {
		errs := newTable().parse("t.spec", tt.src)
		found := false
		for _, e := range errs {
			if regexp.MustCompile(regexp.QuoteMeta(tt.want)).MatchString(e.Error()) {
				found = true
			}
		}
		if !found {
			t.Errorf("parse(%q) errors %v, want one mentioning %q", tt.src, errs, tt.want)
		}
	}
}

// TestMethods checks the method half of the table: aliases and
// inheritance resolve, type parameters instantiate, and every kind the
// runtime dispatches on has entries.
func TestMethods(t *testing.T) {
	for _, kind := range []string{"string", "list", "dict", "set", "range", "iter", "generator", "channel", "Result", "Pair", "closure"} {
		if len(Methods(kind)) == 0 {
			t.Errorf("kind %s has no methods", kind)
		}
	}
	if m := LookupMethod("string", "strip"); m == nil || m.Name != "string.trim" {
		t.Errorf("string.strip = %v, want the string.trim entry", m)
	}
	if m := LookupMethod("range", "map"); m == nil || m.Receiver != "iter" {
		t.Errorf("range.map = %v, want the inherited iter.map entry", m)
	}
	if m := LookupMethod("string", "nosuch"); m != nil {
		t.Errorf("string.nosuch = %v, want nil", m)
	}
	if p := LookupProperty("list", "len"); p == nil || !p.Property || p.Result.String() != "int" {
		t.Errorf("list.len property = %v", p)
	}
	m := LookupMethod("list", "map")
	if got := m.Signature().String(); got != "fn(fn(T) -> U) -> list<U>" {
		t.Errorf("list.map signature %s", got)
	}
	sig := m.Instantiate(func(name string) types.Type {
		if name == "T" {
			return types.IntType
		}
		return nil
	})
	if got := sig.String(); got != "fn(fn(int) -> any) -> list<any>" {
		t.Errorf("list.map instantiated %s", got)
	}
	for _, kind := range Kinds() {
		for _, b := range append(Methods(kind), Properties(kind)...) {
			if b.Doc == "" || b.Receiver != kind || b.Name != kind+"."+b.Member {
				t.Errorf("%s: malformed member entry %+v", b.Name, b)
			}
			if Lookup(b.Name) != nil {
				t.Errorf("%s: a method is also a namespace function", b.Name)
			}
		}
	}
}

// TestConformanceTopMethods: the 60 methods of built-in kinds most used
// in upstream Harn's conformance programs (counted over
// conformance/tests, most used first) all have entries, under the kind
// they are called on there.
func TestConformanceTopMethods(t *testing.T) {
	top := []struct{ kind, names string }{
		{"string", "contains trim count ends_with starts_with split len repeat upper char_at index_of lower replace chars empty"},
		{"list", "contains to_list filter any map find count unique first last take all enumerate len sum chunks skip zip index_of every find_index min none push reduce remove reverse sort window chunk compact each_cons flat_map for_each group_by"},
		{"dict", "get has keys entries map_values rekey remove"},
		{"set", "add is_disjoint difference intersect is_subset"},
		{"iter", "next chain windows"},
	}
	n := 0
	seen := map[string]bool{}
	for _, k := range top {
		for _, name := range strings.Fields(k.names) {
			if LookupMethod(k.kind, name) == nil {
				t.Errorf("no entry for %s.%s", k.kind, name)
			}
			if !seen[name] {
				seen[name] = true
				n++
			}
		}
	}
	if n != 60 {
		t.Errorf("%d distinct names listed, want 60", n)
	}
}
