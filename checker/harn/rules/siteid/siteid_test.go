package siteid_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/siteid"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", siteid.Rule)
}
