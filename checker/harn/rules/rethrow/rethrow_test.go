package rethrow_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/rules/rethrow"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, rethrow.Rule)
}
