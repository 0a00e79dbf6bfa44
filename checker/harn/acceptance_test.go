package harn_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
)

// TestAcceptance runs the whole checker over programs shaped like the
// seed's examples (clean) and their mutations, each of which must produce
// exactly its code and nothing else.
func TestAcceptance(t *testing.T) {
	harntest.Run(t, "testdata/acceptance")
}

// TestQuiet: ordinary, partly untyped Harn programs produce no diagnostic
// at all (gradual code must not drown in noise).
func TestQuiet(t *testing.T) {
	harntest.Run(t, "testdata/quiet")
}

// TestCorpus: our own valid Harn programs, covering the language's
// declarations, scopes and flow typing and every category of the
// standard library, check with no diagnostic at all.
func TestCorpus(t *testing.T) {
	harntest.Run(t, "testdata/corpus")
}
