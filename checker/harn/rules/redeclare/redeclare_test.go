package redeclare_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/redeclare"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", redeclare.Rule)
}
