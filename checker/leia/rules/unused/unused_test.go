package unused_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/unused"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", unused.Rule)
}
