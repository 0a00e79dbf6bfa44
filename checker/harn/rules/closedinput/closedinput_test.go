package closedinput_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/closedinput"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", closedinput.Rule)
}
