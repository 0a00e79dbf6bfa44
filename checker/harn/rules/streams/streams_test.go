package streams_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/streams"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", streams.Rule)
}
