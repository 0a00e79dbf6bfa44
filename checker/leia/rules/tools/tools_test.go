package tools_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/rules/tools"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, tools.Rule)
}

func TestValidCapability(t *testing.T) {
	for c, want := range map[string]bool{"docs.read": true, "none": true, "all": true, "net_client.v2": true,
		"": false, ".x": false, "x.": false, "a..b": false, "1x": false, "a-b": false, "a.1": false} {
		if got := tools.ValidCapability(c); got != want {
			t.Errorf("%q: got %v, want %v", c, got, want)
		}
	}
	for c, want := range map[string]bool{"network.web.sec-download": true, "docs.read": true, "a-b": true,
		"-a": false, "a.-b": false, "": false, "a..b": false, "1x": false} {
		if got := tools.ValidRequiresLabel(c); got != want {
			t.Errorf("requires label %q: got %v, want %v", c, got, want)
		}
	}
}
