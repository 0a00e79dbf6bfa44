package simplify_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/simplify"
)

func TestComparisonToBool(t *testing.T) {
	analysistest.Run(t, "testdata/comparison-to-bool", harn.Checker, simplify.ComparisonToBool)
}

func TestPointlessComparison(t *testing.T) {
	analysistest.Run(t, "testdata/pointless-comparison", harn.Checker, simplify.PointlessComparison)
}

func TestInvalidBinaryOpLiteral(t *testing.T) {
	analysistest.Run(t, "testdata/invalid-binary-op-literal", harn.Checker, simplify.InvalidBinaryOpLiteral)
}

func TestRedundantNilTernary(t *testing.T) {
	analysistest.Run(t, "testdata/redundant-nil-ternary", harn.Checker, simplify.RedundantNilTernary)
}

func TestDuplicateMatchArm(t *testing.T) {
	analysistest.Run(t, "testdata/duplicate-match-arm", harn.Checker, simplify.DuplicateMatchArm)
}

func TestUnnecessaryCast(t *testing.T) {
	analysistest.Run(t, "testdata/unnecessary-cast", harn.Checker, simplify.UnnecessaryCast)
}

func TestRedundantClone(t *testing.T) {
	analysistest.Run(t, "testdata/redundant-clone", harn.Checker, simplify.RedundantClone)
}

func TestEagerCollectionConversion(t *testing.T) {
	analysistest.Run(t, "testdata/eager-collection-conversion", harn.Checker, simplify.EagerCollectionConversion)
}
