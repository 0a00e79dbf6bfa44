package unused_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/unused"
)

func TestRules(t *testing.T) {
	for _, r := range []*analysis.Rule{unused.ShadowVariable, unused.UnusedVariable, unused.UnusedPatternBinding, unused.UnusedParameter,
		unused.UnusedImport, unused.MutableNeverReassigned, unused.UnusedFunction, unused.UnusedType} {
		t.Run(r.Name, func(t *testing.T) { analysistest.Run(t, "testdata/"+r.Name, harn.Checker, r) })
	}
}
