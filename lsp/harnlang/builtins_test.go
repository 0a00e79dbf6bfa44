package harnlang

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lsp/features"
)

func snapshot(src string) features.Snapshot {
	return features.Snapshot{Doc: features.Document{Path: "/p/m.harn", Text: []byte(src)}, Workspace: fakeWorkspace{}}
}

// TestBuiltinCompletionOffersTheWholeTable: with nothing typed, every
// builtin function, global and namespace of the table is offered, each
// with its signature and doc.
func TestBuiltinCompletionOffersTheWholeTable(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "pipeline default(task) {\n  \n}\n"
	items, err := f.Completion(context.Background(), snapshot(src), strings.Index(src, "  \n")+2)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]features.CompletionItem{}
	for _, it := range items {
		got[it.Label] = it
	}
	n := 0
	for _, b := range builtins.All() {
		if b.Namespace != "" {
			continue
		}
		n++
		it, ok := got[b.Name]
		if !ok {
			t.Errorf("builtin %s not offered", b.Name)
			continue
		}
		if it.Detail != b.String() || !strings.Contains(it.Documentation, b.Doc) || it.Kind != features.CompletionFunction {
			t.Errorf("%s offered as %+v", b.Name, it)
		}
	}
	for _, g := range builtins.Globals() {
		if _, ok := got[g.Name]; !ok {
			t.Errorf("global %s not offered", g.Name)
		}
	}
	for _, ns := range builtins.Namespaces() {
		// A namespace that is also a function (stream) is offered as the
		// function; its members follow the dot.
		if it, ok := got[ns]; !ok || it.Kind != features.CompletionModule && builtins.Lookup(ns) == nil {
			t.Errorf("namespace %s offered as %+v", ns, it)
		}
	}
	if n < 780 {
		t.Errorf("only %d builtins in the table", n)
	}
}

func TestBuiltinCompletion(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	labels := func(src, cursor string) []string {
		t.Helper()
		items, err := f.Completion(context.Background(), snapshot(src), strings.Index(src, cursor)+len(cursor))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return out
	}
	for _, tc := range []struct {
		name, src, cursor string
		want, not         []string
	}{
		{"by prefix", "let a = snake_to\n", "snake_to", []string{"snake_to_camel", "snake_to_kebab", "snake_to_pascal"}, []string{"camel_to_snake", "stream.map"}},
		{"namespaces and globals", "let a = str\nlet b = ar\n", "str", []string{"stream", "str_pad"}, []string{"argv"}},
		{"namespace members after the dot", "let a = stream.\n", "stream.", []string{"map", "collect", "take_until"}, []string{"snake_to_camel", "emit"}},
		{"namespace members by prefix", "let a = event_log.su\n", "event_log.su", []string{"subscribe"}, []string{"emit"}},
		{"a declaration shadows the namespace", "let stream = {count: 1}\nlet a = stream.\n", "a = stream.", []string{"count"}, []string{"map"}},
		{"a declaration is offered once, as itself", "fn log(x) { return x }\nlet a = lo\n", "a = lo", []string{"log"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := labels(tc.src, tc.cursor)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("want %q among %v", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q offered: %v", n, got)
				}
			}
			seen := map[string]int{}
			for _, g := range got {
				if seen[g]++; seen[g] > 1 {
					t.Errorf("%q offered twice", g)
				}
			}
		})
	}
}

func TestTableSignatureHelp(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "log(1)\npath_join(\"a\", \"b\", \"c\")\nlet s = stream.map([1], f)\nfn snake_to_camel(a, b) { return a }\nsnake_to_camel(1, 2)\n"
	for _, tc := range []struct {
		cursor, label string
		active        int
	}{
		{"log(", "log(value: any) -> nil", 0},
		{"path_join(\"a\", \"b\", ", "path_join(...parts: any) -> string", 0},
		{"stream.map([1], ", "stream.map(source: any, f: closure) -> stream", 1},
		{"\nsnake_to_camel(1, ", "fn snake_to_camel(a, b)", 1}, // the declaration shadows the builtin
	} {
		h, err := f.SignatureHelp(context.Background(), snapshot(src), strings.Index(src, tc.cursor)+len(tc.cursor))
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || len(h.Signatures) != 1 {
			t.Errorf("%s: got %+v", tc.cursor, h)
			continue
		}
		if h.Signatures[0].Label != tc.label || h.ActiveParameter != tc.active {
			t.Errorf("%s: got %q active %d, want %q active %d", tc.cursor, h.Signatures[0].Label, h.ActiveParameter, tc.label, tc.active)
		}
	}
	h, _ := f.SignatureHelp(context.Background(), snapshot(src), strings.Index(src, "log(")+4)
	if h == nil || len(h.Signatures[0].Parameters) != 1 || h.Signatures[0].Parameters[0].Label != "value: any" || !strings.Contains(h.Signatures[0].Documentation, "standard output") {
		t.Errorf("log's signature help: %+v", h)
	}
}

func TestBuiltinHover(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "let a = read_file(\"x\")\nlet b = stream.collect([1])\nlet c = argv\nfn env(x) { return x }\nlet d = env(1)\n"
	for _, tc := range []struct {
		at, want string
	}{
		{"read_file", "read_file(path: string) -> string"},
		{"read_file", "needs fs"},
		{"collect", "stream.collect(source: any, limit?: any) -> list"},
		{"stream", "Namespace of the standard library"},
		{"argv", "argv: list<string>"},
	} {
		h, err := f.Hover(context.Background(), snapshot(src), strings.Index(src, tc.at)+1)
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || !strings.Contains(h.Markdown, tc.want) {
			t.Errorf("hover on %s: got %+v, want %q", tc.at, h, tc.want)
		}
	}
	// A declaration shadows the builtin of its name.
	h, _ := f.Hover(context.Background(), snapshot(src), strings.Index(src, "env(1)")+1)
	if h == nil || strings.Contains(h.Markdown, "*builtin") {
		t.Errorf("hover on a declared env: %+v", h)
	}
}
