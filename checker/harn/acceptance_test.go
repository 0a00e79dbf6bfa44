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
