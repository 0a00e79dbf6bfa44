package turns_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/rules/turns"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, turns.Rule)
}
