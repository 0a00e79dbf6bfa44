package operators_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/operators"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", operators.Rule)
}
