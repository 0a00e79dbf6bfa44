package initializers_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/initializers"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", initializers.Rule)
}
