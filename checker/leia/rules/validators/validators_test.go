package validators_test

import (
	"os"
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/validators"
	"github.com/harnlang/harn-check/runtime/rhai"
	"github.com/harnlang/harn-check/runtime/validator"
)

// host compiles with the real validator contract, as harn-check does.
var host = &analysis.Host{
	ReadFile: os.ReadFile,
	CompileValidator: func(label string, src []byte) *analysis.ValidatorProblem {
		_, cerr := validator.Compile(label, string(src), rhai.Limits{})
		if cerr == nil {
			return nil
		}
		return &analysis.ValidatorProblem{Code: cerr.Code, Message: cerr.Message, Line: cerr.Line, Column: cerr.Column}
	},
}

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.CheckerWith(host), validators.Rule)
}

func TestSilentWithoutHost(t *testing.T) {
	ds := analysistest.Diagnostics(leia.Checker, "testdata/invalid.leia", mustRead(t, "testdata/invalid.leia"), []*analysis.Rule{validators.Rule})
	for _, d := range ds {
		if d.Code == "LEIA3008" && d.Message != `on_validator_error must be "reject" or "accept", not "ignore"` {
			t.Errorf("without a host: %s %s", d.Code, d.Message)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
