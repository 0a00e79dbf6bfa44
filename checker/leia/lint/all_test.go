package lint_test

import (
	"strings"
	"testing"

	framework "github.com/harnlang/harn-check/checker/analysis"
	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/checker/leia/lint"
	"github.com/harnlang/harn-check/diagnostics"
)

// TestRules: the list is valid for the framework, no code is used twice,
// and the page of every code but the check rule's names its lint rule.
func TestRules(t *testing.T) {
	if err := framework.Validate(lint.Rules); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, r := range lint.Rules {
		for _, c := range r.Codes {
			if other, ok := seen[c]; ok {
				t.Errorf("%s and %s share %s", other, r.Name, c)
			}
			seen[c] = r.Name
			info, _ := diagnostics.Lookup(c)
			if strings.HasPrefix(c, "LEIA2") && !strings.Contains(info.Explanation, "`"+r.Name+"`") {
				t.Errorf("%s: the page of %s does not name the rule `%s`", r.Name, c, r.Name)
			}
		}
	}
}

// TestExplainExamples runs the Wrong and Right examples of every lint
// code's page with the lint rules: the code fires for the wrong example
// and not for the right one, and neither has an error.
func TestExplainExamples(t *testing.T) {
	for _, r := range lint.Rules {
		for _, code := range r.Codes {
			info, ok := diagnostics.Lookup(code)
			if !ok {
				t.Errorf("%s: no explanation page", code)
				continue
			}
			t.Run(code, func(t *testing.T) {
				if info.Wrong.Lang != "leia" || info.Right.Lang != "leia" {
					t.Fatalf("examples are %q and %q, want leia", info.Wrong.Lang, info.Right.Lang)
				}
				fires := func(src string) bool {
					hit := false
					for _, d := range leia.Checker.Check("example.leia", []byte(src), lint.Rules) {
						hit = hit || d.Code == code
						if d.Severity == diagnostics.Error {
							t.Errorf("%s %s", d.Code, d.Message)
						}
					}
					return hit
				}
				if !fires(info.Wrong.Code) {
					t.Errorf("wrong example does not produce %s:\n%s", code, info.Wrong.Code)
				}
				if fires(info.Right.Code) {
					t.Errorf("right example produces %s:\n%s", code, info.Right.Code)
				}
			})
		}
	}
}

// TestPagesNameTheRule: the `rule:` line of each code's page lists the
// rule's name (harn.toml resolves rule names through these lines).
func TestPagesNameTheRule(t *testing.T) {
	for _, r := range lint.Rules {
		want := append([]string{r.Name}, r.Aliases...)
		for _, c := range r.Codes {
			info, _ := diagnostics.Lookup(c)
			if strings.Join(info.Rules, ",") != strings.Join(want, ",") {
				t.Errorf("%s: page names rules %v, want %v", c, info.Rules, want)
			}
		}
	}
}
