package turns_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/turns"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", turns.Rule)
}
