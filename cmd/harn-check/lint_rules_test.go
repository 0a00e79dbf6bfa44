package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/language"
)

// TestLintRulesBothLanguages: lint runs the Harn lint rules on .harn
// files and the Leia ones on .leia files, --list shows both, a rule name
// both languages use selects both, an opt-in rule runs only when
// selected, and check runs none of them.
func TestLintRulesBothLanguages(t *testing.T) {
	dir := t.TempDir()
	h := writeFile(t, dir, "flow.harn", "fn fetchData() -> int {\n  return 1\n}\n")
	l := writeFile(t, dir, "flow.leia", "func get_Value(done) {\n    if done == true {\n        return 1\n    }\n    return 0\n}\nprint(get_Value(true))\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
		not  []string
	}{
		{"defaults", []string{"lint", h, l}, []string{"HARN-LNT-003", "LEIA2005", "LEIA2006"}, []string{"HARN-LNT-045"}},
		{"one name, both languages", []string{"lint", "--select", "naming-convention", h, l}, []string{"HARN-LNT-003", "LEIA2006"}, []string{"LEIA2005"}},
		{"Leia code", []string{"lint", "--select", "LEIA2005", l}, []string{"LEIA2005"}, []string{"LEIA2006"}},
		{"opt-in selected", []string{"lint", "--extend-select", "require-file-header", h}, []string{"HARN-LNT-045", "HARN-LNT-003"}, nil},
		{"list", []string{"lint", "--list"}, []string{"HARN-LNT-002", "cyclomatic-complexity", "LEIA2002", "shadow-variable", "require-file-header"}, nil},
		{"check runs no lint rule", []string{"check", h, l}, nil, []string{"HARN-LNT-", "LEIA2005", "LEIA2006"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stdout, stderr := runCLI(t, tc.args...)
			out := stdout + stderr
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestReadmeListsEveryLintRule: the README's lint table has a row naming
// each lint rule of both languages with its code and default.
func TestReadmeListsEveryLintRule(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(readme), "\n") {
		cells := strings.Split(line, "|")
		if code := strings.TrimSpace(cells[min(2, len(cells)-1)]); len(cells) > 3 && (strings.HasPrefix(code, "HARN-LNT-") || strings.HasPrefix(code, "LEIA")) {
			rows[strings.TrimSpace(cells[2])] = line
		}
	}
	var rules []language.LintRule
	for _, l := range languages {
		if l.Lint != nil {
			rules = append(rules, l.Lint.Rules()...)
		}
	}
	for _, r := range rules {
		for _, c := range r.Codes {
			row, ok := rows[c]
			if !ok {
				t.Errorf("README lint table has no row for %s (%s)", c, r.Name)
				continue
			}
			def := "| on"
			if r.OptIn {
				def = "| opt-in"
			}
			if !strings.Contains(row, "`"+r.Name+"`") || !strings.Contains(row, def) {
				t.Errorf("README row for %s does not name `%s` with its default (%s):\n%s", c, r.Name, def, row)
			}
		}
	}
}
