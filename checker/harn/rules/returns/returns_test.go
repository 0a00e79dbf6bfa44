package returns_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/returns"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", returns.Rule)
}
