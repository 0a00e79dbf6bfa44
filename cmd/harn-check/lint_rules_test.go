package main

import (
	"strings"
	"testing"
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
