package imports_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/imports"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.CheckerWith(&analysis.Host{GoModules: []string{"go:strings"}}), imports.Rule)
}
