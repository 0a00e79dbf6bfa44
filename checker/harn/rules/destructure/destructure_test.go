package destructure_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/destructure"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", destructure.Rule)
}
