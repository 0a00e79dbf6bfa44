package properties_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/harn/harntest"
	"github.com/harnlang/harn-check/checker/harn/rules/properties"
)

func TestRule(t *testing.T) {
	harntest.Run(t, "testdata", properties.Rule)
}
