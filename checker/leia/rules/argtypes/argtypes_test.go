package argtypes_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/rules/argtypes"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, argtypes.Rule)
}
