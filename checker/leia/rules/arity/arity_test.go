package arity_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/arity"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", arity.Rule)
}
