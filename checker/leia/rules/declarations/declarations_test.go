package declarations_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/declarations"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", declarations.Rule)
}
