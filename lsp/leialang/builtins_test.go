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
		{"x := tost", "tost", "tostring", "tostring(value)", ""},
		{"x := string.fi", "fi", "find", "string.find(s, pattern, init?, plain?)", "upper"},
		{"r, e := llm.tu", "tu", "turn", "llm.turn(request)", ""},
		{"func f(string) {\n    return string.fi\n}", "fi\n", "", "", "find"},
		{"x := eva", "eva", "eval", "module eval (inside evaluate blocks only)", ""},
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
