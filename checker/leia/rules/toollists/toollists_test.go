package toollists_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/toollists"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", toollists.Rule)
}
