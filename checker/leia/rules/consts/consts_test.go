package consts_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/consts"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", consts.Rule)
}
