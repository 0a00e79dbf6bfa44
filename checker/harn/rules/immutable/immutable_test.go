package immutable_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/immutable"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", immutable.Rule)
}
