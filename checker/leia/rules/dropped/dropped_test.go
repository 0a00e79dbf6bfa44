package dropped_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/dropped"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", dropped.Rule)
}
