package imports_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/imports"
)

// TestRule: with declared bindings (an allow-list), an import outside it
// is an error.
func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.CheckerWith(&analysis.Host{GoModules: []string{"go:strings"}}), imports.Rule)
}

// TestUndeclared: where nothing declares the embedder's bindings (upstream's
// embedding examples, checked alone), a go: import is a warning; a project
// that declares an empty list makes it an error again.
func TestUndeclared(t *testing.T) {
	analysistest.Run(t, "testdata/undeclared", leia.CheckerWith(nil), imports.Rule)
	analysistest.Run(t, "testdata/declared", leia.CheckerWith(&analysis.Host{HostDeclared: true}), imports.Rule)
}
