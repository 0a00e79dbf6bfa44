package agents_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/agents"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", agents.Rule)
}
