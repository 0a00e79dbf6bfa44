package validator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunBlueprintOutput: a blueprint stage's whole chain runs in the
// contract's order (format parser, JSON Schema, validator), a schema that
// does not compile is skipped with the answer recorded unchecked, and a
// format override retires the declared schema and validator while the
// override's schema is kept.
func TestRunBlueprintOutput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("validators/root.rhai", "fn validate(content) {\n  let doc = parse_json(content);\n  if doc.root == () { return \"the document needs a `root`\"; }\n  ()\n}\n")
	write("bp.toml", `[agent.output]
format = "json"
schema = { type = "object", required = ["agent"] }

[stages.present.output]
format = "json"
schema = '{"type": "object", "required": ["title"]}'
validator = "validators/root.rhai"

[stages.broken.output]
format = "json"
schema = '{"type": 12}'
`)
	str := func(s string) *string { return &s }
	bp := filepath.Join(dir, "bp.toml")
	for _, tc := range []struct {
		name          string
		req           BlueprintOutputRequest
		content       string
		verdict, want string
		code          int
	}{
		{"parser first", BlueprintOutputRequest{Stage: "present"}, "not json", "reject", "not valid json", 1},
		{"schema before validator", BlueprintOutputRequest{Stage: "present"}, `{"root": 1}`, "reject", `missing property "title"`, 1},
		{"validator last", BlueprintOutputRequest{Stage: "present"}, `{"title": "t"}`, "reject", "needs a `root`", 1},
		{"all pass", BlueprintOutputRequest{Stage: "present"}, `{"title": "t", "root": 1}`, "pass", "", 0},
		{"schema not compiling is skipped", BlueprintOutputRequest{Stage: "broken"}, `{"x": 1}`, "pass", "recording the submission unchecked", 0},
		{"agent table", BlueprintOutputRequest{Agent: true}, `{"title": "t"}`, "reject", `missing property "agent"`, 1},
		{"format override retires both", BlueprintOutputRequest{Stage: "present", Format: str("text")}, "plain words", "pass", "", 0},
		{"override keeps its schema", BlueprintOutputRequest{Stage: "present", Format: str("text"), Schema: str(`{"type": "string"}`)}, "plain words", "reject", "not JSON", 1},
		{"same format keeps the validator", BlueprintOutputRequest{Stage: "present", Format: str("json")}, `{"title": "t"}`, "reject", "needs a `root`", 1},
		{"unknown stage", BlueprintOutputRequest{Stage: "nope"}, "x", "failure", "no stage \"nope\"", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Blueprint, req.Content = bp, []byte(tc.content)
			res, code, diags := RunBlueprintOutput(req)
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %v", diags)
			}
			got := ""
			if res.Reason != nil {
				got = *res.Reason
			}
			got += strings.Join(res.Warnings, "\n")
			if res.Failure != nil {
				got += res.Failure.Message
			}
			if res.Verdict != tc.verdict || code != tc.code || !strings.Contains(got, tc.want) {
				t.Errorf("verdict %s, exit %d, %q; want %s, %d, containing %q", res.Verdict, code, got, tc.verdict, tc.code, tc.want)
			}
		})
	}
}
