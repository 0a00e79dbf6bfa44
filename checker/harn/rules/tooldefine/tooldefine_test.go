package tooldefine_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/tooldefine"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", tooldefine.Rule)
}
