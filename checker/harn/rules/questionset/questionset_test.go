package questionset_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/questionset"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", questionset.Rule)
}
