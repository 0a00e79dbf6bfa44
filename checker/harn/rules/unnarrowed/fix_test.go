package unnarrowed_test

import (
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/rules/unnarrowed"
)

// TestFixWrapsInMatch applies the suggested fix and checks the result
// reads the field inside the narrowed arm and checks clean.
func TestFixWrapsInMatch(t *testing.T) {
	src := "import \"std/predicate\"\n\nfn f(o: PredicateOutcome) -> bool {\n  const v = o.value.verdict\n  return v\n}\n"
	res := harn.Check("f.harn", []byte(src), harn.Options{Rules: []*analysis.Rule{unnarrowed.Rule}})
	if len(res.Diagnostics) != 1 || len(res.Diagnostics[0].Fixes) != 1 {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
	e := res.Diagnostics[0].Fixes[0].Edits[0]
	fixed := src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	want := "  match o.kind {\n    \"verdict\" -> {\n      const v = o.value.verdict\n    }\n    _ -> { }\n  }\n"
	if !strings.Contains(fixed, want) {
		t.Fatalf("fixed source:\n%s", fixed)
	}
	after := harn.Check("f.harn", []byte(fixed), harn.Options{Rules: []*analysis.Rule{unnarrowed.Rule}})
	if len(after.Diagnostics) != 0 {
		t.Errorf("after the fix: %+v", after.Diagnostics)
	}
}
