package leia_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis"
	leia "github.com/harnlang/harn-check/checker/leia"
)

// TestRulesAreDocumented: every rule has a unique name, a doc whose title
// names the rule and its codes, only registered codes, and acyclic
// requirements.
func TestRulesAreDocumented(t *testing.T) {
	if err := analysis.Validate(leia.Rules); err != nil {
		t.Error(err)
	}
}
