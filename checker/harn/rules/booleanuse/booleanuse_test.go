package booleanuse_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/booleanuse"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", booleanuse.Rule)
}
