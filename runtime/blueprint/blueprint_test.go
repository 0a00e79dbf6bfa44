package blueprint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

// setup writes files under a temporary blueprint directory.
func setup(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, src := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestForms(t *testing.T) {
	dir := setup(t, map[string]string{"validators/a2ui.rhai": "fn validate(c) { () }"})
	cases := []struct {
		name string
		toml string
		// check inspects the parsed blueprint.
		check func(t *testing.T, bp *Blueprint)
	}{
		{"agent output", "[agent.output]\nformat = \"a2ui\"\nvalidator = \"validators/a2ui.rhai\"\non_validator_error = \"accept\"\n",
			func(t *testing.T, bp *Blueprint) {
				a := bp.Agent
				if a == nil || a.Format != "a2ui" || a.OnValidatorError != "accept" || a.Validator.File != "validators/a2ui.rhai" ||
					a.Validator.Resolved != filepath.Join(dir, "validators/a2ui.rhai") || a.Validator.Label != "validators/a2ui.rhai" {
					t.Fatalf("got %+v %+v", a, a.Validator)
				}
			}},
		{"stages table form", "[stages.present.output]\nformat = \"a2ui\"\nvalidator = \" validators/a2ui.rhai \"\n\n[stages.draft.output]\nformat = \"md\"\n",
			func(t *testing.T, bp *Blueprint) {
				if len(bp.Stages) != 2 || bp.Stages[0].Name != "draft" || bp.Stages[1].Name != "present" || bp.Stages[1].Form != "stages" {
					t.Fatalf("got %+v", bp.Stages)
				}
				if v := bp.Stages[1].Output.Validator; v == nil || v.File != "validators/a2ui.rhai" {
					t.Fatalf("path is trimmed: %+v", v)
				}
				if bp.Stages[0].Output.Validator != nil {
					t.Fatal("draft has no validator")
				}
			}},
		{"graph form with file table", "[[graph.stages]]\nname = \"present\"\noutput = { format = \"a2ui\", validator = { file = \"validators/a2ui.rhai\" }, on_validator_error = \"reject\" }\n",
			func(t *testing.T, bp *Blueprint) {
				s := bp.Stages[0]
				if s.Name != "present" || s.Form != "graph" || s.Output.Format != "a2ui" || s.Output.OnValidatorError != "reject" || s.Output.Validator.File != "validators/a2ui.rhai" {
					t.Fatalf("got %+v %+v", s, s.Output)
				}
			}},
		{"graph form with inline script", "[[graph.stages]]\nname = \"summary\"\noutput = { format = \"report\", validator = { inline = \"fn validate(content) { () }\" } }\n",
			func(t *testing.T, bp *Blueprint) {
				v := bp.Stages[0].Output.Validator
				if v.Inline != "fn validate(content) { () }" || v.File != "" || !strings.HasSuffix(v.Label, "blueprint.toml#summary") || v.InlineOffset < 0 {
					t.Fatalf("got %+v", v)
				}
			}},
		{"graph form with a path string", "[[graph.stages]]\nname = \"a\"\noutput = { validator = \"validators/a2ui.rhai\" }\n\n[[graph.stages]]\nname = \"b\"\n[graph.stages.output]\nformat = \"x\"\n",
			func(t *testing.T, bp *Blueprint) {
				if len(bp.Stages) != 2 || bp.Stages[0].Output.Validator.File != "validators/a2ui.rhai" || bp.Stages[1].Output.Format != "x" {
					t.Fatalf("got %+v", bp.Stages)
				}
			}},
		{"multi-line inline script maps offsets", "[[graph.stages]]\nname = \"s\"\noutput.validator.inline = '''\nfn validate(c) { () }'''\n",
			func(t *testing.T, bp *Blueprint) {
				v := bp.Stages[0].Output.Validator
				if v.Inline != "fn validate(c) { () }" || v.InlineOffset != strings.Index("[[graph.stages]]\nname = \"s\"\noutput.validator.inline = '''\nfn", "fn") {
					t.Fatalf("got %+v", v)
				}
			}},
		{"escaped inline script cannot map offsets", "[[graph.stages]]\nname = \"s\"\noutput = { validator = { inline = \"fn validate(c) { \\\"x\\\" }\" } }\n",
			func(t *testing.T, bp *Blueprint) {
				if v := bp.Stages[0].Output.Validator; v.InlineOffset != -1 {
					t.Fatalf("got %+v", v)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "blueprint.toml")
			bp, diags := Parse(path, []byte(c.toml))
			if len(diags) != 0 {
				t.Fatalf("diagnostics: %+v", diags)
			}
			if !LooksLikeBlueprint([]byte(c.toml)) {
				t.Fatal("not recognised as a blueprint")
			}
			c.check(t, bp)
		})
	}
}

func TestRefusals(t *testing.T) {
	dir := setup(t, map[string]string{"validators/a2ui.rhai": "fn validate(c) { () }", "validators/sub/.keep": ""})
	outside := setup(t, map[string]string{"v.rhai": "fn validate(c) { () }"})
	if err := os.Symlink(filepath.Join(outside, "v.rhai"), filepath.Join(dir, "validators/link.rhai")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		toml     string
		code     string
		spanText string
		msg      string
	}{
		{"bad on_validator_error", "[agent.output]\non_validator_error = \"ignore\"\n", CodeBadOnError, `"ignore"`, `found "ignore"`},
		{"on_validator_error is case-sensitive", "[stages.a.output]\non_validator_error = \"Reject\"\n", CodeBadOnError, `"Reject"`, `found "Reject"`},
		{"on_validator_error must be a string", "[[graph.stages]]\nname = \"a\"\noutput = { on_validator_error = true }\n", CodeBadOnError, "true", "found a boolean"},
		{"path escapes with ..", "[agent.output]\nvalidator = \"../v.rhai\"\n", CodePathEscapes, `"../v.rhai"`, "resolves outside the blueprint's directory"},
		{"escape hidden inside a path", "[stages.a.output]\nvalidator = \"validators/../../v.rhai\"\n", CodePathEscapes, `"validators/../../v.rhai"`, "resolves outside"},
		{"absolute path", "[agent.output]\nvalidator = \"" + filepath.Join(outside, "v.rhai") + "\"\n", CodePathEscapes, `"` + filepath.Join(outside, "v.rhai") + `"`, "resolves outside"},
		{"symlink leaving the directory", "[agent.output]\nvalidator = \"validators/link.rhai\"\n", CodePathEscapes, `"validators/link.rhai"`, "resolves outside"},
		{"missing file", "[[graph.stages]]\nname = \"a\"\noutput = { validator = { file = \"validators/nope.rhai\" } }\n", CodeMissingFile, `"validators/nope.rhai"`, "cannot read output validator"},
		{"directory instead of a file", "[agent.output]\nvalidator = \"validators/sub\"\n", CodeMissingFile, `"validators/sub"`, "is a directory"},
		{"file and inline together", "[[graph.stages]]\nname = \"a\"\noutput = { validator = { file = \"v.rhai\", inline = \"x\" } }\n", CodeBadValidator, "validator", "mutually exclusive"},
		{"neither file nor inline", "[[graph.stages]]\nname = \"a\"\noutput = { validator = { path = \"v.rhai\" } }\n", CodeBadValidator, "validator", `unknown key "path"`},
		{"validator of the wrong type", "[agent.output]\nvalidator = 3\n", CodeBadValidator, "validator", "found an integer"},
		{"empty validator path", "[agent.output]\nvalidator = \"  \"\n", CodeBadValidator, "validator", "the path is empty"},
		{"output not a table", "[stages.a]\noutput = \"a2ui\"\n", CodeBadOutputField, "output", "must be a table"},
		{"format not a string", "[agent.output]\nformat = 1\n", CodeBadOutputField, "format", "must be a string"},
		{"toml syntax error", "[agent.output]\nvalidator = validators/a.rhai\n", CodeTOMLSyntax, "v", "not valid TOML"},
		{"duplicate key", "[agent.output]\nformat = \"a\"\nformat = \"b\"\n", CodeTOMLSyntax, "", "not valid TOML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.toml)
			_, diags := Parse(filepath.Join(dir, "blueprint.toml"), src)
			if len(diags) != 1 {
				t.Fatalf("got %d diagnostics: %+v", len(diags), diags)
			}
			d := diags[0]
			if d.Code != c.code || !strings.Contains(d.Message, c.msg) || d.Source != diagnostics.SourceValidator {
				t.Fatalf("got %s %q, want %s containing %q", d.Code, d.Message, c.code, c.msg)
			}
			if c.spanText != "" {
				if got := string(src[d.Span.Start:d.Span.End]); got != c.spanText {
					t.Fatalf("span covers %q, want %q", got, c.spanText)
				}
			}
			if _, ok := diagnostics.Lookup(d.Code); !ok {
				t.Fatalf("%s has no explanation page", d.Code)
			}
		})
	}
}

func TestLooksLikeBlueprint(t *testing.T) {
	for src, want := range map[string]bool{
		"[package]\nname = \"x\"\n":                     false,
		"[agent]\nname = \"x\"\n":                       false,
		"[agent.output]\nformat = \"a\"\n":              true,
		"[stages.a.output]\n":                           true,
		"[[graph.stages]]\nname = \"a\"\noutput = {}\n": true,
		"[[graph.stages]]\nname = \"a\"\n":              false,
		"not toml at all\n":                             false,
		"validator = = broken\n":                        true,
	} {
		if got := LooksLikeBlueprint([]byte(src)); got != want {
			t.Errorf("%q: got %v", src, got)
		}
	}
}

func TestResolve(t *testing.T) {
	dir := setup(t, map[string]string{"validators/a.rhai": "x", "a.rhai": "x"})
	for p, ok := range map[string]bool{
		"validators/a.rhai":    true,
		"./a.rhai":             true,
		"validators/../a.rhai": true,
		"../a.rhai":            false,
		"/etc/passwd":          false,
		"validators/../../" + filepath.Base(dir) + "/a.rhai": true, // leaves and re-enters: inside once cleaned
	} {
		_, err := Resolve(dir, p)
		if (err == nil) != ok {
			t.Errorf("%s: err = %v", p, err)
		}
	}
}

// TestOutputTableKeys: an output table's schema is read (JSON text or a
// TOML table) and an unknown key is an error naming it.
func TestOutputTableKeys(t *testing.T) {
	bp, diags := Parse("bp.toml", []byte(`[stages.a.output]
format = "json"
schema = '{"type": "object"}'
shcema = "typo"

[agent.output]
schema = { type = "string" }
`))
	if len(diags) != 1 || diags[0].Code != CodeBadOutputField || !strings.Contains(diags[0].Message, "unknown key `shcema`") {
		t.Fatalf("diagnostics %v, want one %s naming shcema", diags, CodeBadOutputField)
	}
	if bp.Stages[0].Output.Schema != `{"type": "object"}` {
		t.Errorf("stage schema %q", bp.Stages[0].Output.Schema)
	}
	if bp.Agent.Schema != `{"type":"string"}` {
		t.Errorf("agent schema %q", bp.Agent.Schema)
	}
}
