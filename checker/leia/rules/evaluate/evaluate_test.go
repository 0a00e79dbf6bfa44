package evaluate_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/evaluate"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", evaluate.Rule)
}
