package generics_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/generics"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", generics.Rule)
}
