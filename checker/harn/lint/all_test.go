package lint_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	framework "github.com/harnlang/harn-check/checker/analysis"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint"
	"github.com/harnlang/harn-check/diagnostics"
)

var lintCode = regexp.MustCompile(`^HARN-LNT-[0-9]{3}$`)

// TestRules: the list is valid for the framework, every rule has a name
// spelt like upstream's (lower-case words joined by dashes) and only
// HARN-LNT codes, no code is used twice, and every code's page says
// "lint rule".
func TestRules(t *testing.T) {
	if err := framework.Validate(lint.Rules); err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]string{}
	for _, r := range lint.Rules {
		if !name.MatchString(r.Name) {
			t.Errorf("%s: not an upstream-style rule name", r.Name)
		}
		for _, c := range r.Codes {
			if !lintCode.MatchString(c) {
				t.Errorf("%s: code %s is not a HARN-LNT code", r.Name, c)
			}
			if other, ok := seen[c]; ok {
				t.Errorf("%s and %s share %s", other, r.Name, c)
			}
			seen[c] = r.Name
			info, _ := diagnostics.Lookup(c)
			if !strings.Contains(info.Explanation, "`"+r.Name+"`") {
				t.Errorf("%s: the page of %s does not name the rule `%s`", r.Name, c, r.Name)
			}
		}
	}
}

// TestSelect: the defaults leave opt-in rules out; a name, a code or ALL
// selects; ignore removes; an unknown entry is returned.
func TestSelect(t *testing.T) {
	all := lint.Rules
	def, unknown := framework.Select(all, nil, nil, nil)
	if len(unknown) != 0 {
		t.Fatal(unknown)
	}
	for _, r := range def {
		if r.OptIn {
			t.Errorf("%s is opt-in but selected by default", r.Name)
		}
	}
	one, _ := framework.Select(all, []string{"comparison-to-bool"}, nil, nil)
	if len(one) != 1 || one[0].Name != "comparison-to-bool" {
		t.Errorf("select by name: %v", names(one))
	}
	byCode, _ := framework.Select(all, []string{"HARN-LNT-032"}, nil, nil)
	if len(byCode) != 1 {
		t.Errorf("select by code: %v", names(byCode))
	}
	none, _ := framework.Select(all, nil, nil, []string{"ALL"})
	if len(none) != 0 {
		t.Errorf("ignore ALL: %v", names(none))
	}
	_, unknown = framework.Select(all, nil, []string{"no-such-rule"}, nil)
	if len(unknown) != 1 || unknown[0] != "no-such-rule" {
		t.Errorf("unknown: %v", unknown)
	}
}

func names(rs []*analysis.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

// TestExplainExamples runs the Wrong and Right examples of every lint
// code's page with the lint rules: the code fires for the wrong example
// and not for the right one.
func TestExplainExamples(t *testing.T) {
	for _, r := range lint.Rules {
		for _, code := range r.Codes {
			info, ok := diagnostics.Lookup(code)
			if !ok {
				t.Errorf("%s: no explanation page", code)
				continue
			}
			t.Run(code, func(t *testing.T) {
				if info.Wrong.Lang != "harn" || info.Right.Lang != "harn" {
					t.Fatalf("examples are %q and %q, want harn", info.Wrong.Lang, info.Right.Lang)
				}
				if !fires(info.Wrong.Code, code) {
					t.Errorf("wrong example does not produce %s:\n%s", code, info.Wrong.Code)
				}
				if fires(info.Right.Code, code) {
					t.Errorf("right example produces %s:\n%s", code, info.Right.Code)
				}
			})
		}
	}
}

func fires(src, code string) bool {
	res := harn.Check("example.harn", []byte(src), harn.Options{Rules: lint.Rules})
	for _, d := range res.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestSelectAlias: upstream's second name of a rule selects it.
func TestSelectAlias(t *testing.T) {
	rs, unknown := framework.Select(lint.Rules, []string{"unreachable-code"}, nil, nil)
	if len(unknown) != 0 || len(rs) != 1 || rs[0].Name != "dead-code-after-return" {
		t.Fatalf("got %v, unknown %v", names(rs), unknown)
	}
}

// TestPagesNameTheRule: the `rule:` line of each code's page lists the
// rule's name and its other names, and no page names a rule that does not
// report it (harn.toml resolves rule names through these lines).
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
	for _, info := range diagnostics.Codes() {
		if len(info.Rules) > 0 && strings.HasPrefix(info.Code, "HARN-") && !slices.ContainsFunc(lint.Rules, func(r *analysis.Rule) bool { return slices.Contains(r.Codes, info.Code) }) {
			t.Errorf("%s: page names rule %v, which is no Harn lint rule", info.Code, info.Rules)
		}
	}
}
