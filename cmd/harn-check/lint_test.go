package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLintCommand: lint reports the lint rules' findings and syntax
// errors in the check command's formats and exit statuses, not type
// errors; --select, --extend-select and --ignore choose rules by name,
// code or ALL; an unknown rule is a usage error.
func TestLintCommand(t *testing.T) {
	dir := t.TempDir()
	lintme := writeFile(t, dir, "lintme.harn", "pub fn f(ok: bool) -> bool {\n  return ok == true\n}\n")
	typeErr := writeFile(t, dir, "typeerr.harn", "const x: int = \"s\"\nprintln(x)\n")
	broken := writeFile(t, dir, "broken.harn", "fn (\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
		not  []string
	}{
		{"default rules", []string{"lint", lintme}, exitOK, []string{"warning[HARN-LNT-032]", "fix: Replace with `ok`"}, nil},
		{"flags after paths", []string{"lint", lintme, "--json"}, exitOK, []string{`"code": "HARN-LNT-032"`}, nil},
		{"sarif", []string{"lint", "--format", "sarif", lintme}, exitOK, []string{`"ruleId": "HARN-LNT-032"`}, nil},
		{"ignore by name", []string{"lint", "--ignore", "comparison-to-bool", lintme}, exitOK, nil, []string{"HARN-LNT-032"}},
		{"ignore ALL", []string{"lint", "--ignore=ALL", lintme}, exitOK, nil, []string{"HARN-LNT-032"}},
		{"select by code", []string{"lint", "--select", "HARN-LNT-032", lintme}, exitOK, []string{"HARN-LNT-032"}, nil},
		{"type errors are check's", []string{"lint", typeErr}, exitOK, nil, []string{"HARN-TYP"}},
		{"syntax errors fail", []string{"lint", broken}, exitFail, []string{"HARN-PAR-"}, nil},
		{"unknown rule", []string{"lint", "--select", "no-such-rule", lintme}, exitUsage, []string{"no lint rule is named no-such-rule"}, nil},
		{"list", []string{"lint", "--list"}, exitOK, []string{"HARN-LNT-032", "comparison-to-bool", " on "}, nil},
		{"no paths", []string{"lint"}, exitUsage, []string{"no paths given"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			out := stdout + stderr
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
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
	// The JSON envelope carries the fix's edit.
	_, stdout, _ := runCLI(t, "lint", "--json", lintme)
	var env map[string]any
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("lint --json: %v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, `"fixes"`) && !strings.Contains(stdout, `"fix"`) {
		t.Errorf("lint --json carries no fix:\n%s", stdout)
	}
	// check does not run the lint rules.
	if _, stdout, _ := runCLI(t, "check", lintme); strings.Contains(stdout, "HARN-LNT") {
		t.Errorf("check reports lint findings:\n%s", stdout)
	}
}
