package harn

import (
	"strings"
	"testing"
)

// TestValidateSurface: each TOOL_SURFACE_* rule fires on its own case and
// only error diagnostics make a surface invalid.
func TestValidateSurface(t *testing.T) {
	const reader = `{"name": "read_out", "parameters": {"id": "string"}, "executor": "host_bridge", "annotations": {"kind": "read", "side_effect_level": "read_only"}}`
	const runner = `{"name": "run_cmd", "parameters": {"command": "string"}, "executor": "host_bridge", "annotations": {"kind": "execute", "side_effect_level": "process_exec", "emits_artifacts": true}}`
	tests := []struct {
		name, surface string
		want          string // codes in order, comma-separated
		valid         bool
	}{
		{"coherent", `{"tools": [` + reader + `]}`, "", true},
		{"bare tool", `{"tools": [{"name": "x_tool"}]}`,
			"TOOL_SURFACE_MISSING_SCHEMA,TOOL_SURFACE_MISSING_ANNOTATIONS,TOOL_SURFACE_MISSING_EXECUTOR", true},
		{"level none", `{"tools": [{"name": "t", "parameters": {}, "executor": "e", "annotations": {"kind": "read"}}]}`,
			"TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL", true},
		{"unknown kind is no annotations", `{"tools": [{"name": "t", "parameters": {}, "executor": "e", "annotations": {"kind": "teleport", "side_effect_level": "read_only"}}]}`,
			"TOOL_SURFACE_MISSING_ANNOTATIONS", true},
		{"policy annotations fill in", `{"tools": [{"name": "t", "parameters": {}, "executor": "e"}], "policy": {"tool_annotations": {"t": {"kind": "read", "side_effect_level": "read_only"}}}}`,
			"", true},
		{"artifacts without reader", `{"tools": [` + runner + `]}`, "TOOL_SURFACE_MISSING_RESULT_READER", false},
		{"reader outside policy", `{"tools": [` + runner + `,` + reader + `], "policy": {"tools": ["run_*"]}}`, "TOOL_SURFACE_MISSING_RESULT_READER", false},
		{"inline result", `{"tools": [{"name": "r", "parameters": {}, "executor": "e", "annotations": {"kind": "execute", "side_effect_level": "process_exec", "emits_artifacts": true, "inline_result": true}}]}`, "", true},
		{"declared reader missing", `{"tools": [{"name": "r", "parameters": {}, "executor": "e", "annotations": {"kind": "execute", "side_effect_level": "process_exec", "emits_artifacts": true, "result_readers": ["gone"]}},` + reader + `]}`,
			"TOOL_SURFACE_UNKNOWN_RESULT_READER", true},
		{"constraint tool and key", `{"tools": [` + reader + `], "policy": {"tool_arg_constraints": [{"tool": "nope", "arg_key": "p"}, {"tool": "read_*", "arg_key": "path"}, {"tool": "read_out", "arg_key": "id"}]}}`,
			"TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL,TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY", true},
		{"approval patterns", `{"tools": [` + reader + `], "approval_policy": {"auto_approve": ["read_out", "x*"], "auto_deny": ["rm"]}}`,
			"TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH", true},
		{"prompt references", `{"tools": [` + reader + `,{"name": "later_tool", "parameters": {}, "executor": "e", "defer_loading": true, "annotations": {"kind": "read", "side_effect_level": "read_only"}}], "policy": {"tools": ["read_out", "later_tool"]},
			"system": "Call read_out(id) or later_tool() or missing_tool(). if (x) len(y)\n` + "```" + `\nfenced_tool()\n` + "```" + `\n<!-- harn-tool-surface: ignore-next-line -->\nold_tool()\n<tool_call> ghost_tool"}`,
			"TOOL_SURFACE_UNKNOWN_PROMPT_TOOL,TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE,TOOL_SURFACE_UNKNOWN_PROMPT_TOOL", true},
		{"prompt tool outside policy", `{"tools": [` + reader + `,{"name": "w_tool", "parameters": {}, "executor": "e", "annotations": {"kind": "edit", "side_effect_level": "workspace_write"}}], "policy": {"tools": ["read_out"]}, "prompt": "use w_tool()"}`,
			"TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY", true},
		{"deprecated alias", `{"tools": [{"name": "r", "parameters": {"path": "string"}, "executor": "e", "annotations": {"kind": "read", "side_effect_level": "read_only", "arg_schema": {"arg_aliases": {"file": "path"}}}}], "prompt": "pass the file, not a filename"}`,
			"TOOL_SURFACE_DEPRECATED_ARG_ALIAS", true},
		{"side-effect ceiling", `{"tools": [` + runner + `,` + reader + `], "policy": {"side_effect_level": "read_only"}}`,
			"TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED", false},
		{"native tools", `{"native_tools": [{"type": "function", "function": {"name": "n_tool", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}, {"name": "tool_search"}], "policy": {"tool_arg_constraints": [{"tool": "n_tool", "arg_key": "q"}]}}`,
			"TOOL_SURFACE_MISSING_ANNOTATIONS", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			surface, err := ParseJSON(tc.surface)
			if err != nil {
				t.Fatal(err)
			}
			report := surfaceReport(validateSurface(surfaceInputOf(surface, Nil))).AsDict()
			var codes []string
			diags, _ := report.Get("diagnostics")
			for _, d := range diags.AsList().SharedItems() {
				code, _ := d.AsDict().Get("code")
				codes = append(codes, code.AsString())
			}
			if got := strings.Join(codes, ","); got != tc.want {
				t.Errorf("codes = %s, want %s", got, tc.want)
			}
			if valid, _ := report.Get("valid"); valid.AsBool() != tc.valid {
				t.Errorf("valid = %v, want %v", valid.AsBool(), tc.valid)
			}
		})
	}
}
