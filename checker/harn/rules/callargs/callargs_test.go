package callargs_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/callargs"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", callargs.Rule)
}
