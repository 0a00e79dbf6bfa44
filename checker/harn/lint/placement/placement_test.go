package placement_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/placement"
)

func TestPipelineReturnType(t *testing.T) {
	analysistest.Run(t, "testdata/pipeline-return-type", harn.Checker, placement.PipelineReturnType)
}

func TestAssertOutsideTest(t *testing.T) {
	analysistest.Run(t, "testdata/assert-outside-test", harn.Checker, placement.AssertOutsideTest)
}

func TestRequireInTest(t *testing.T) {
	analysistest.Run(t, "testdata/require-in-test", harn.Checker, placement.RequireInTest)
}

func TestBreakOutsideLoop(t *testing.T) {
	analysistest.Run(t, "testdata/break-outside-loop", harn.Checker, placement.BreakOutsideLoop)
}
