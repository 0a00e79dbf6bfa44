package leialang

import (
	"context"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// TestBuiltinCompletion: predeclared names complete by prefix with their
// signature, module members complete after "module.", and a local that
// shadows a module name gets no module members.
func TestBuiltinCompletion(t *testing.T) {
	f, syn, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src, at  string
		want     string // label that must be offered, with this detail
		detail   string
		notLabel string
	}{
		{"x := tost", "tost", "tostring", "tostring(value: any) -> string", ""},
		{"x := string.fi", "fi", "find", "string.find(s: string, pattern: string, init?: integer, plain?: boolean) -> start: integer?, end: integer?", "upper"},
		{"r, e := llm.tu", "tu", "turn", "llm.turn(request: table) -> result: table?, err: error?", ""},
		{"func f(string) {\n    return string.fi\n}", "fi\n", "", "", "find"},
		{"x := eva", "eva", "eval", "module eval (inside evaluate blocks only)", ""},
		// Members whose signatures the table gained with issue 24 (they
		// were "(...)" before): module members of every family.
		{"x := string.spl", "spl", "split", "string.split(s: string, sep?: string) -> table", ""},
		{"x := fs.readF", "readF", "readFile", "fs.readFile(path: string) -> text: string?, err: string?", ""},
		{"x := llm.hand", "hand", "handoff", "llm.handoff(agent: function, opts?: table) -> table", ""},
	}
	for _, c := range cases {
		src := []byte(c.src)
		tree := syn.Parse(nil, nil, src).(*tsquery.Tree)
		snap := features.Snapshot{Doc: features.Document{Text: src, Tree: tree}}
		at := strings.LastIndex(c.src, c.at) + len(strings.TrimSuffix(c.at, "\n"))
		items, err := f.Completion(context.Background(), snap, at)
		tree.Close()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, it := range items {
			if it.Label == c.want && it.Detail == c.detail {
				found = true
			}
			if c.notLabel != "" && it.Label == c.notLabel {
				t.Errorf("%q: offered %q", c.src, c.notLabel)
			}
		}
		if c.want != "" && !found {
			t.Errorf("%q: no %q with detail %q in %+v", c.src, c.want, c.detail, items)
		}
	}
}

// TestBuiltinHoverAndSignature: hover and signature help on Leia's
// predeclared functions and standard-library members show the signature
// and doc of lang/leia/stdlib (issue 27 item 10); a local that shadows a
// module gets its own declaration, not the module's.
func TestBuiltinHoverAndSignature(t *testing.T) {
	src := "home := os.getenv(\"HOME\")\nparts := string.split(home, \"/\")\nr, err := llm.turn({user: home})\nevaluate \"rows\" {\n    rows := eval.load_jsonl(\"d.jsonl\")\n    print(rows, r, err)\n}\nfunc f(os) {\n    return os.getenv(1)\n}\n"
	f, snap, done := snapshotOf(t, src)
	defer done()
	ctx := context.Background()
	hovers := []struct {
		at, want, doc string
	}{
		{"getenv(\"HOME", "os.getenv(name: string) -> string?", "environment variable"},
		{"turn({", "llm.turn(request: table) -> result: table?, err: error?", "one model turn"},
		{"load_jsonl", "eval.load_jsonl(path: string) -> table", "JSON-lines"},
		{"os.getenv(\"HOME", "module os", "operating-system"},
		{"print(rows", "print(values...: any)", "standard output"},
		{"split(home", "string.split(s: string, sep?: string) -> table", "split around sep"},
	}
	for _, h := range hovers {
		got, err := f.Hover(ctx, snap, strings.Index(src, h.at)+1)
		if err != nil || got == nil || !strings.Contains(got.Markdown, h.want) || !strings.Contains(got.Markdown, h.doc) {
			t.Errorf("hover at %q: got %+v %v, want %q and %q", h.at, got, err, h.want, h.doc)
		}
	}
	if got, _ := f.Hover(ctx, snap, strings.LastIndex(src, "getenv(1)")+1); got != nil && strings.Contains(got.Markdown, "os.getenv") {
		t.Errorf("hover on a shadowed module's member: %+v", got)
	}
	sigs := []struct {
		at     string
		label  string
		active int
	}{
		{"\"HOME\")", "os.getenv(name: string) -> string?", 0},
		{"{user: home}", "llm.turn(request: table) -> result: table?, err: error?", 0},
		{"\"d.jsonl\"", "eval.load_jsonl(path: string) -> table", 0},
		{"r, err)", "print(values...: any)", 0},
		{"\"/\")", "string.split(s: string, sep?: string) -> table", 1},
	}
	for _, c := range sigs {
		h, err := f.SignatureHelp(ctx, snap, strings.Index(src, c.at)+1)
		if err != nil || h == nil || h.Signatures[0].Label != c.label || h.ActiveParameter != c.active || h.Signatures[0].Documentation == "" {
			t.Errorf("signature at %q: got %+v %v, want %s", c.at, h, err, c.label)
		}
	}
	if h, _ := f.SignatureHelp(ctx, snap, strings.Index(src, "1)")); h != nil {
		t.Errorf("signature help on a shadowed module's member: %+v", h)
	}
}
