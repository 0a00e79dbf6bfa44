package exhaustive_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/exhaustive"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", exhaustive.Rule)
}
