package general_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/lint/general"
)

func TestShadowVariable(t *testing.T) {
	analysistest.Run(t, "testdata/shadow-variable", leia.Checker, general.ShadowVariable)
}

func TestUnreachableCode(t *testing.T) {
	analysistest.Run(t, "testdata/unreachable-code", leia.Checker, general.UnreachableCode)
}

func TestEmptyBlock(t *testing.T) {
	analysistest.Run(t, "testdata/empty-block", leia.Checker, general.EmptyBlock)
}

func TestComparisonToBool(t *testing.T) {
	analysistest.Run(t, "testdata/comparison-to-bool", leia.Checker, general.ComparisonToBool)
}

func TestNamingConvention(t *testing.T) {
	analysistest.Run(t, "testdata/naming-convention", leia.Checker, general.NamingConvention)
}

func TestMixedCase(t *testing.T) {
	for name, want := range map[string]bool{
		"max_retries": false, "maxRetries": false, "MaxRetries": false, "MAX_RETRIES": false,
		"_private": false, "x": false, "get_Value": true, "Max_retries": true, "__init__": false,
	} {
		if got := general.MixedCase(name); got != want {
			t.Errorf("MixedCase(%q) = %v, want %v", name, got, want)
		}
	}
}
