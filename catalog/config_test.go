package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

// TestConfigRuleNames: [lint] entries may be upstream's rule names; a
// name stands for the codes its pages list it on (both languages'), and
// Enabled returns the entries that turn rules on for a path.
func TestConfigRuleNames(t *testing.T) {
	c := &Config{}
	err := c.parse([]byte(`[lint]
select = ["HARN", "LEIA", "require-file-header"]
disabled = ["unused-import", "naming-convention"]
severity = { shadow-variable = "info" }
complexity_threshold = 9

[[lint.overrides]]
paths = ["tests/**"]
select = ["HARN-LNT-045", "HARN-LNT"]
disabled = ["unreachable-code"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, code string
		on         bool
		sev        diagnostics.Severity
	}{
		{"a.harn", "HARN-LNT-017", false, diagnostics.Warning}, // unused-import
		{"a.harn", "HARN-LNT-003", false, diagnostics.Warning}, // naming-convention, Harn's
		{"a.leia", "LEIA2006", false, diagnostics.Warning},     // and Leia's
		{"a.harn", "HARN-LNT-009", true, diagnostics.Info},     // shadow-variable
		{"a.leia", "LEIA2002", true, diagnostics.Info},
		{"a.harn", "HARN-LNT-011", true, diagnostics.Warning},
		{"tests/t.harn", "HARN-LNT-011", false, diagnostics.Warning}, // dead-code-after-return's other name
		{"tests/t.leia", "LEIA2003", false, diagnostics.Warning},
	} {
		sev, on := c.Rule(tc.path, tc.code, diagnostics.Warning)
		if on != tc.on || on && sev != tc.sev {
			t.Errorf("%s %s: on %v %v, want %v %v", tc.path, tc.code, on, sev, tc.on, tc.sev)
		}
	}
	if got := c.Enabled("a.harn"); !slices.Equal(got, []string{"require-file-header"}) {
		t.Errorf("Enabled(a.harn) = %q", got)
	}
	if got := c.Enabled("tests/t.harn"); !slices.Equal(got, []string{"require-file-header", "HARN-LNT-045"}) {
		t.Errorf("Enabled(tests/t.harn) = %q (a prefix turns no rule on)", got)
	}
	if c.Lint.ComplexityThreshold != 9 {
		t.Errorf("complexity_threshold %d", c.Lint.ComplexityThreshold)
	}
	err = (&Config{}).parse([]byte("[lint]\nignore = [\"unused-imprt\"]\n"))
	if err == nil || !strings.Contains(err.Error(), "did you mean unused-import?") {
		t.Errorf("misspelt rule: %v", err)
	}
}
