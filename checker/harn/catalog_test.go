package harn_test

import (
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
)

const routed = `import "std/predicate"

fn f(llm: HarnessLlm, s: {x: int}) -> PredicateOutcome {
  return llm.evaluate_predicate("route.v1", "Is it?", s, {backend: "structured_llm", provider: "acme", model: "judge", threshold: 0.5})
}
`

// TestProjectCatalog: harn.toml above the file adds routes; a broken one
// is HARN-CFG-001 alone (no route is checked against a catalog the run
// would refuse).
func TestProjectCatalog(t *testing.T) {
	tests := []struct {
		name  string
		toml  string
		codes []string
	}{
		{"no project file", "", []string{"HARN-TYP-035"}},
		{"route declared", "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"text_generation\", \"decision\"]\n", nil},
		{"decision only, no native protocol", "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"decision\"]\n", []string{"HARN-TYP-035"}},
		{"route lacks decision", "[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"text_generation\"]\nstructured_transport = \"unsupported\"\n", []string{"HARN-TYP-035"}},
		{"broken file", "[[routes]\n", []string{"HARN-CFG-001"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loader := harn.MapLoader{}
			if tc.toml != "" {
				loader["a/harn.toml"] = []byte(tc.toml)
			}
			res := harn.Check("a/b/f.harn", []byte(routed), harn.Options{Loader: loader})
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Code)
			}
			if len(got) != len(tc.codes) {
				t.Fatalf("codes %v, want %v", got, tc.codes)
			}
			for i := range got {
				if got[i] != tc.codes[i] {
					t.Errorf("codes %v, want %v", got, tc.codes)
				}
			}
		})
	}
}
