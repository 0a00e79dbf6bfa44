package unreachable_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/unreachable"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", unreachable.Rule)
}
