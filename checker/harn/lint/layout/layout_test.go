package layout_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/layout"
)

func TestBlankLineBetweenItems(t *testing.T) {
	analysistest.Run(t, "testdata/blank-line-between-items", harn.Checker, layout.BlankLineBetweenItems)
}

func TestTrailingComma(t *testing.T) {
	analysistest.Run(t, "testdata/trailing-comma", harn.Checker, layout.TrailingComma)
}

func TestImportOrder(t *testing.T) {
	analysistest.Run(t, "testdata/import-order", harn.Checker, layout.ImportOrder)
}

// TestFixesSettle: each rule's fixes, applied once, leave nothing for the
// rule to report.
func TestFixesSettle(t *testing.T) {
	analysistest.RunFixes(t, "testdata/blank-line-between-items/fix", harn.Checker, layout.BlankLineBetweenItems)
	analysistest.RunFixes(t, "testdata/trailing-comma/fix", harn.Checker, layout.TrailingComma)
	analysistest.RunFixes(t, "testdata/import-order/fix", harn.Checker, layout.ImportOrder)
}
