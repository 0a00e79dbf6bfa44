package flow_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/flow"
)

func TestDeadCodeAfterReturn(t *testing.T) {
	analysistest.Run(t, "testdata/dead-code-after-return", harn.Checker, flow.DeadCodeAfterReturn)
}

func TestEmptyBlock(t *testing.T) {
	analysistest.Run(t, "testdata/empty-block", harn.Checker, flow.EmptyBlock)
}

func TestUnnecessaryElseReturn(t *testing.T) {
	analysistest.Run(t, "testdata/unnecessary-else-return", harn.Checker, flow.UnnecessaryElseReturn)
}

func TestLetThenReturn(t *testing.T) {
	analysistest.Run(t, "testdata/let-then-return", harn.Checker, flow.LetThenReturn)
}
