package callargs_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/rules/callargs"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, callargs.Rule)
}

// TestBackendSuggestion: a policy naming an unknown backend is refused
// with the nearest accepted backend offered, for any misspelling.
func TestBackendSuggestion(t *testing.T) {
	for _, tc := range []struct{ backend, want string }{
		{"magic", "did you mean `native_decision`?"},
		{"structured", "did you mean `structured_llm`?"},
		{"native", "did you mean `native_decision`?"},
	} {
		src := "import \"std/predicate\"\nfn f(llm: HarnessLlm, s: {x: int}) -> PredicateOutcome {\n  return llm.evaluate_predicate(\"b.v1\", \"Is it?\", s, {backend: \"" + tc.backend + "\", provider: \"mock\", model: \"fixture\", threshold: 0.5})\n}\n"
		res := harn.Check("b.harn", []byte(src), harn.Options{})
		found := false
		for _, d := range res.Diagnostics {
			if d.Code == "HARN-TYP-006" && strings.Contains(d.Message, "backend \""+tc.backend+"\"") {
				found = true
				if !strings.Contains(d.Help, tc.want) {
					t.Errorf("backend %q: help %q lacks %q", tc.backend, d.Help, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("backend %q: no HARN-TYP-006 naming it; got %v", tc.backend, res.Diagnostics)
		}
	}
}
