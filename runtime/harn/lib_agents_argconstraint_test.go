package harn

import (
	"strings"
	"testing"
)

// TestArgConstraintViolation: a constraint checks one string argument
// (arg_key, else annotated path_params) against its globs; absent
// arguments, other tools and malformed entries never reject or panic.
func TestArgConstraintViolation(t *testing.T) {
	tests := []struct {
		name, policy, tool, args string
		want                     string // "" or a substring of the reason
	}{
		{"no policy", `null`, "ls", `{"path": "x"}`, ""},
		{"match", `{"tool_arg_constraints": [{"tool": "ls", "arg_key": "path", "arg_patterns": ["src/*"]}]}`, "ls", `{"path": "src/a"}`, ""},
		{"mismatch", `{"tool_arg_constraints": [{"tool": "ls", "arg_key": "path", "arg_patterns": ["src/*"]}]}`, "ls", `{"path": "/etc"}`, `tool 'ls' path '/etc' does not match allowed patterns: ["src/*"]`},
		{"absent argument", `{"tool_arg_constraints": [{"tool": "ls", "arg_key": "path", "arg_patterns": ["src/*"]}]}`, "ls", `{}`, ""},
		{"other tool", `{"tool_arg_constraints": [{"tool": "rm*", "arg_key": "path", "arg_patterns": ["src/*"]}]}`, "ls", `{"path": "/etc"}`, ""},
		{"path_params", `{"tool_arg_constraints": [{"tool": "ls", "arg_patterns": ["src/*"]}], "tool_annotations": {"ls": {"arg_schema": {"path_params": ["dir", "path"]}}}}`, "ls", `{"path": "docs"}`, "path 'docs'"},
		{"no key anywhere", `{"tool_arg_constraints": [{"tool": "ls", "arg_patterns": ["src/*"]}]}`, "ls", `{"path": "docs"}`, ""},
		{"malformed entries", `{"tool_arg_constraints": [3, {"tool": "ls"}, {"arg_patterns": "x"}], "tool_annotations": 5}`, "ls", `{"path": "docs"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseJSON(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ParseJSON(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			got := argConstraintViolation(p.AsDict(), tc.tool, a)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
