package interfaces_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/interfaces"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", interfaces.Rule)
}
