package imports_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/imports"
)

func TestRule(t *testing.T) {
	leiatest.RunWith(t, "testdata", leiatest.Options{Host: &analysis.Host{GoModules: []string{"go:strings"}}}, imports.Rule)
}
