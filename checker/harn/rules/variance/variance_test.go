package variance_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/variance"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", variance.Rule)
}
