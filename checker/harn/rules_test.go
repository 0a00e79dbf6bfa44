package harn_test

import (
	"strings"
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/diagnostics"
)

// TestRulesAreDocumented: every rule has a unique name, a doc whose title
// names the rule and its codes, and only registered codes.
func TestRulesAreDocumented(t *testing.T) {
	names := map[string]bool{}
	for _, r := range harn.Rules {
		if names[r.Name] {
			t.Errorf("duplicate rule name %s", r.Name)
		}
		names[r.Name] = true
		title, _, _ := strings.Cut(r.Doc, "\n")
		if !strings.HasPrefix(title, r.Name+":") {
			t.Errorf("%s: doc title %q does not start with the rule name", r.Name, title)
		}
		if len(r.Codes) == 0 {
			t.Errorf("%s: no codes", r.Name)
		}
		for _, c := range r.Codes {
			if !strings.Contains(r.Doc, c) {
				t.Errorf("%s: doc does not mention %s", r.Name, c)
			}
			if _, ok := diagnostics.Lookup(c); !ok {
				t.Errorf("%s: code %s has no explanation page", r.Name, c)
			}
		}
		if len(strings.Split(r.Doc, "\n")) < 5 {
			t.Errorf("%s: doc is only a title", r.Name)
		}
	}
}
