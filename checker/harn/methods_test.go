package harn_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
)

// TestMethodTyping: method calls on strings, lists, dicts, sets,
// iterators and Results are typed from the builtin table, so wrong arguments and
// results that flow into a mismatch are reported (they were any before),
// and ordinary calls stay clean.
func TestMethodTyping(t *testing.T) {
	analysistest.Run(t, "testdata/methods", harn.Checker)
}
