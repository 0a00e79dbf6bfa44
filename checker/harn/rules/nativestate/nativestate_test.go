package nativestate_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/nativestate"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", nativestate.Rule)
}
