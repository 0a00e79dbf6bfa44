package names_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/names"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, names.Rule)
}

// TestHostModules: a global the project declares its embedder installs
// (harn.toml [leia] host_modules) is read without a diagnostic; assigning
// to it is still an error.
func TestHostModules(t *testing.T) {
	analysistest.Run(t, "testdata/host", leia.CheckerWith(&analysis.Host{HostDeclared: true, HostModules: []string{"billing"}}), names.Rule)
}

func TestSuggest(t *testing.T) {
	cases := []struct{ name, want string }{
		{"pirnt", "print"},
		{"tostrin", "tostring"},
		{"x", ""},
		{"completely_unrelated", ""},
	}
	for _, c := range cases {
		if got := names.Suggest(c.name, []string{"print", "tostring", "pairs", "x1"}); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
