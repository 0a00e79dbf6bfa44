package validator

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/rhai"
)

func TestSpawnExample(t *testing.T) {
	s, diags, err := Spawn(filepath.Join("..", "..", "examples", "validators", "blueprint.toml"), rhai.Limits{})
	if err != nil || s == nil || len(diags) != 0 {
		t.Fatalf("spawn: %v %+v", err, diags)
	}
	if len(s.Checker.Validators) != 2 {
		t.Fatalf("want the file and the inline validator compiled once each, got %d", len(s.Checker.Validators))
	}
	bad := `{"root": {"component": "Carousel"}}`
	cases := []struct {
		name, stage string
		request     Spec
		content     string
		accepted    bool
		refusal     string
		broken      []string
	}{
		{name: "stage validator rejects", stage: "present", content: bad, refusal: "[error] the final output was rejected: root: unknown component 'Carousel'"},
		{name: "stage validator passes", stage: "present", content: `{"root": {"component": "Text", "text": "hi"}}`, accepted: true},
		{name: "unknown stage falls back to the agent", stage: "other", content: bad, refusal: "[error] the final output was rejected: root: unknown"},
		{name: "format override retires the validator", stage: "present", request: Spec{Format: ptr("markdown")}, content: bad, accepted: true},
		{name: "repeating the format keeps it", stage: "present", request: Spec{Format: ptr("a2ui")}, content: bad, refusal: "[error] the final output was rejected"},
		{name: "failure under reject refuses and flags", stage: "present", content: "{oops", refusal: "[error] the final output was rejected: validators/a2ui.rhai: validate: Syntax error: expecting a string key in the JSON text (line 1, position 2)", broken: []string{"validators/a2ui.rhai"}},
		{name: "inline validator", stage: "summary", content: "short", refusal: "[error] the final output was rejected: write at least one full sentence", broken: []string{"validators/a2ui.rhai"}},
		{name: "stage name is refused", stage: "present", content: "Summary", refusal: "[error] the final output is the stage name", broken: []string{"validators/a2ui.rhai"}},
	}
	for _, c := range cases {
		d := s.Submit(c.stage, c.request, c.content)
		if d.Accepted != c.accepted || !strings.HasPrefix(d.Refusal, c.refusal) || (c.refusal == "") != (d.Refusal == "") {
			t.Errorf("%s: got %+v", c.name, d)
		}
		if c.broken != nil && !slices.Equal(s.Checker.Broken.Names(), c.broken) {
			t.Errorf("%s: broken %v", c.name, s.Checker.Broken.Names())
		}
	}
	if got := s.Spec("present", Spec{}); got.OnValidatorError != RejectOnError || got.Validator != "validators/a2ui.rhai" {
		t.Errorf("present spec %+v", got)
	}
	if got := s.Spec("summary", Spec{}); got.OnValidatorError != AcceptOnError || got.Format != "report" {
		t.Errorf("summary spec %+v", got)
	}
}

func TestSpawnRefuses(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		codes []string
	}{
		{"syntax error in a script", map[string]string{"bp.toml": "[agent.output]\nvalidator = \"v.rhai\"\n", "v.rhai": "fn validate(c) {"}, []string{CodeSyntax}},
		{"wrong arity", map[string]string{"bp.toml": "[stages.a.output]\nvalidator = \"v.rhai\"\n", "v.rhai": "fn validate() { () }"}, []string{CodeArity}},
		{"missing validate inline", map[string]string{"bp.toml": "[[graph.stages]]\nname = \"a\"\noutput = { validator = { inline = \"fn f(c) { () }\" } }\n"}, []string{CodeNoValidate}},
		{"missing file", map[string]string{"bp.toml": "[agent.output]\nvalidator = \"v.rhai\"\n"}, []string{"RHAI-BLU-003"}},
		{"bad policy even with a good script", map[string]string{"bp.toml": "[agent.output]\nvalidator = \"v.rhai\"\non_validator_error = \"warn\"\n", "v.rhai": "fn validate(c) { () }"}, []string{"RHAI-BLU-001"}},
		{"escaping path", map[string]string{"bp.toml": "[agent.output]\nvalidator = \"../v.rhai\"\n"}, []string{"RHAI-BLU-002"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, diags, err := Spawn(filepath.Join(dir, "bp.toml"), rhai.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if s != nil {
				t.Fatal("a broken validator must refuse the load")
			}
			var codes []string
			for _, d := range diags {
				codes = append(codes, d.Code)
			}
			if !slices.Equal(codes, c.codes) {
				t.Fatalf("codes %v, want %v", codes, c.codes)
			}
		})
	}
	if _, _, err := Spawn(filepath.Join(t.TempDir(), "none.toml"), rhai.Limits{}); err == nil {
		t.Fatal("unreadable blueprint must be an error")
	}
}
