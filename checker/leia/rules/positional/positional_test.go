package positional_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/positional"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", positional.Rule)
}
