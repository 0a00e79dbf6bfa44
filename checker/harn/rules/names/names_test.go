package names_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/names"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", names.Rule)
}
