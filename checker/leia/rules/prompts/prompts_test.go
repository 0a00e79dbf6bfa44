package prompts_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/prompts"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", prompts.Rule)
}
