package lsp_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// routedProgram names a route only a project harn.toml declares.
const routedProgram = `import "std/predicate"

fn f(llm: HarnessLlm, s: {x: int}) -> PredicateOutcome {
  return llm.evaluate_predicate("route.v1", "Is it?", s, {backend: "structured_llm", provider: "acme", model: "judge", threshold: 0.5})
}
`

// routedWithProject starts a server on a workspace whose unsaved
// harn.toml is toml (none when empty), opens routedProgram in it and
// returns the client and the diagnostics published for it.
func routedWithProject(t *testing.T, toml string) (*lsptest.Client, []string) {
	t.Helper()
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///nonexistent-w", nil)
	if toml != "" {
		c.Open("file:///nonexistent-w/harn.toml", "toml", 1, toml)
	}
	c.Open("file:///nonexistent-w/p/x.harn", "harn", 1, routedProgram)
	d := c.WaitDiagnostics("file:///nonexistent-w/p/x.harn", 1)
	var all []string
	for _, raw := range d.Diagnostics {
		all = append(all, string(raw))
	}
	return c, all
}

// TestUnsavedCatalog: the route catalog is read through the editor's
// buffers, so an unsaved harn.toml is the catalog the checker uses (the
// route catalog package reads it through the checker's loader); an
// unsaved invalid one is HARN-CFG-001.
func TestUnsavedCatalog(t *testing.T) {
	tests := []struct {
		name, toml string
		want       string // a code the program's diagnostics have, "" none
	}{
		{"no project file", "", "HARN-TYP-035"},
		{"unsaved route", "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"text_generation\", \"decision\"]\n", ""},
		{"unsaved decision-only route", "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"decision\"]\n", "HARN-TYP-035"},
		{"unsaved invalid file", "[[routes]]\nprovider = \"acme\"\n", "HARN-CFG-001"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, all := routedWithProject(t, tc.toml)
			joined := strings.Join(all, "\n")
			if tc.want == "" && len(all) != 0 {
				t.Errorf("diagnostics %s, want none", joined)
			}
			if tc.want != "" && !strings.Contains(joined, `"`+tc.want+`"`) {
				t.Errorf("diagnostics %s, want %s", joined, tc.want)
			}
		})
	}
}
