package simplify_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/simplify"
)

func TestComparisonToBool(t *testing.T) {
	analysistest.Run(t, "testdata/comparison-to-bool", harn.Checker, simplify.ComparisonToBool)
}
