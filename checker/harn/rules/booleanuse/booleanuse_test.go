package booleanuse_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/rules/booleanuse"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, booleanuse.Rule)
}
