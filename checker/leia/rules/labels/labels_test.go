package labels_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/leia/leiatest"
	"github.com/harnlang/harn-check/checker/leia/rules/labels"
)

func TestRule(t *testing.T) {
	leiatest.Run(t, "testdata", labels.Rule)
}
