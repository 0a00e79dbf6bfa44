package discarded_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/discarded"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", discarded.Rule)
}
