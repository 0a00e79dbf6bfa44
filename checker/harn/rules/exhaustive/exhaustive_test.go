package exhaustive_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/rules/exhaustive"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, exhaustive.Rule)
}

// TestFixes applies the "Add the missing arms" fixes of each fixture in
// testdata/fixes and compares the text with its .fixed golden: inserted
// arms are indented like the existing ones and the closing brace keeps
// its indentation.
func TestFixes(t *testing.T) {
	analysistest.RunFixes(t, "testdata/fixes", harn.Checker, exhaustive.Rule)
}
