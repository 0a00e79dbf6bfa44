package paramorder_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/paramorder"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", paramorder.Rule)
}
