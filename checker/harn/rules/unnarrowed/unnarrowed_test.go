package unnarrowed_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/unnarrowed"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", unnarrowed.Rule)
}
