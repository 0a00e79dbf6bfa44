package modelroute_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/modelroute"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", modelroute.Rule)
}
