package harn_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis"
	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestRulesAreDocumented: every rule has a unique name, a doc whose title
// names the rule and its codes, only registered codes, and acyclic
// requirements.
func TestRulesAreDocumented(t *testing.T) {
	if err := analysis.Validate(harn.Rules); err != nil {
		t.Error(err)
	}
}
