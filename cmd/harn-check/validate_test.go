package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateExamples(t *testing.T) {
	code, out, stderr := runCLI(t, "validate", "../../examples/validators")
	if code != exitOK || !strings.Contains(out, "no problems found") {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
	dir := t.TempDir()
	bp := "[stages.present.output]\nformat = \"a2ui\"\nvalidator = \"../outside.rhai\"\non_validator_error = \"ignore\"\n"
	if err := os.WriteFile(filepath.Join(dir, "blueprint.toml"), []byte(bp), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "validate", "--json", dir)
	if code != exitFail || !strings.Contains(out, `"code": "RHAI-BLU-001"`) || !strings.Contains(out, `"code": "RHAI-BLU-002"`) {
		t.Errorf("broken blueprint: exit %d\n%s", code, out)
	}
}

func TestValidateOutput(t *testing.T) {
	script := "../../examples/validators/validators/a2ui.rhai"
	dir := t.TempDir()
	arity := filepath.Join(dir, "arity.rhai")
	if err := os.WriteFile(arity, []byte("fn validate(a, b) { () }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A blueprint stage with a JSON Schema and the example's validator;
	// another blueprint with a misspelt output key.
	bp := filepath.Join(dir, "bp.toml")
	if err := os.MkdirAll(filepath.Join(dir, "validators"), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(dir, "typo.toml")
	schemaFile := filepath.Join(dir, "string.json")
	for name, text := range map[string]string{
		filepath.Join(dir, "validators", "a2ui.rhai"): string(src),
		bp:         "[stages.present.output]\nformat = \"json\"\nschema = '{\"type\": \"object\", \"required\": [\"title\"]}'\nvalidator = \"validators/a2ui.rhai\"\n",
		typo:       "[stages.present.output]\nformat = \"json\"\nschmea = '{}'\n",
		schemaFile: `{"type": "string"}`,
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := "../../examples/validators/answers/good.json"
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		verdict  string
		inStderr string
	}{
		{"pass", []string{"--validator", script, "--content", "../../examples/validators/answers/good.json"}, exitOK, "pass", ""},
		{"reject", []string{"--validator", script, "--content", "../../examples/validators/answers/missing-root.json"}, exitFail, "reject", ""},
		{"failure rejects", []string{"--validator", script, "--content", "../../examples/validators/answers/malformed.json"}, exitFail, "failure", ""},
		{"failure accepted", []string{"--validator", script, "--on-error", "accept", "--content", "../../examples/validators/answers/malformed.json"}, exitOK, "failure", ""},
		{"does not compile", []string{"--validator", arity, "--content", "../../examples/validators/answers/good.json"}, exitUsage, "failure", "RHAI-VAL-002"},
		{"blueprint schema before validator", []string{"--blueprint", bp, "--stage", "present", "--content", good}, exitFail, "reject", ""},
		{"blueprint override retires schema and validator", []string{"--blueprint", bp, "--stage", "present", "--format", "a2ui", "--content", good}, exitOK, "pass", ""},
		{"blueprint override keeps its schema", []string{"--blueprint", bp, "--stage", "present", "--format", "a2ui", "--output-schema", schemaFile, "--content", good}, exitFail, "reject", ""},
		{"blueprint unknown output key", []string{"--blueprint", typo, "--stage", "present", "--content", good}, exitUsage, "failure", "unknown key `schmea`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, append([]string{"validate-output"}, tc.args...)...)
			var res struct {
				Verdict       string   `json:"verdict"`
				BrokenScripts []string `json:"broken_scripts"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if code != tc.code || res.Verdict != tc.verdict || !strings.Contains(stderr, tc.inStderr) {
				t.Errorf("exit %d verdict %q stderr %q", code, res.Verdict, stderr)
			}
		})
	}
	code, _, stderr := runCLI(t, "validate-output", "--validator", script, "--on-error", "maybe")
	if code != exitUsage || strings.Count(stderr, "\n") != 1 {
		t.Errorf("bad --on-error: exit %d %q", code, stderr)
	}
}
