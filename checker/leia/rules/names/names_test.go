package names_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/rules/names"
)

func TestRule(t *testing.T) {
	analysistest.Run(t, "testdata", leia.Checker, names.Rule)
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
