package ai_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

var validatorFiles = map[string]string{
	// decision.rhai rejects answers that do not start with "Decision:".
	"decision.rhai": `fn validate(content) {
    if !content.starts_with("Decision:") { return "start with Decision:"; }
    ()
}`,
	// json.rhai throws on an answer that is not JSON (parse_json fails).
	"json.rhai": `fn validate(content) {
    let doc = parse_json(content);
    if doc.ok != true { return "ok must be true"; }
    ()
}`,
	"broken_syntax.rhai": `fn validate(content) { let x = ; }`,
	"two_params.rhai":    `fn validate(a, b) { () }`,
}

func runValidated(t *testing.T, src string, answers ...llm.TurnResult) (*env, *scripted, error) {
	t.Helper()
	p := &scripted{answers: answers}
	e, err := runLeia(t, src, p, validatorFiles)
	return e, p, err
}

// A refusal goes back to the model with the validator's reason; a
// corrected answer passes.
func TestValidatorRejectsThenAccepts(t *testing.T) {
	e, p, err := runValidated(t, `
		a := agent { name: "lead", model: "m", validator: "decision.rhai" }
		r, err := a("should we ship?")
		assert(err == nil && r.status == "done" && r.text == "Decision: yes" && r.validation.status == "passed")
		assert(#r.validation.broken_scripts == 0)
	`, final("We should ship."), final("Decision: yes"))
	if err != nil {
		t.Fatal(err, e.out.String())
	}
	fb := p.reqs[1].Messages
	if len(fb) != 3 || fb[1].Role != "assistant" || fb[1].Text != "We should ship." || fb[2].Role != "user" ||
		!strings.HasPrefix(fb[2].Text, "[error] the final output was rejected: start with Decision:") {
		t.Errorf("feedback %+v", fb)
	}
}

// Out of steps, the refusal is the agent's error.
func TestValidatorRefusalEndsTheAgent(t *testing.T) {
	_, p, err := runValidated(t, `
		a := agent { name: "lead", model: "m", validator: "decision.rhai", max_steps: 2 }
		r, err := a("q")
		assert(r == nil && err.kind == "validation" && string.find(err.reason, "start with Decision:", 1, true) != nil)
		b := agent { name: "once", model: "m", validator: "decision.rhai", output_retries: 0 }
		r, err = b("q")
		assert(r == nil && err.kind == "validation")
	`, final("no"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.reqs) != 3 {
		t.Errorf("turns %d, want 2 + 1", len(p.reqs))
	}
}

// A validator that fails to run (here parse_json throws) refuses the
// answer under the default on_validator_error = "reject", with the
// script's own error as the reason, and is reported in broken_scripts;
// under "accept" the answer is recorded unchecked. The run does not
// crash either way.
func TestBrokenValidatorRejectOrAccept(t *testing.T) {
	e, p, err := runValidated(t, `
		strict := agent { name: "strict", model: "m", validator: "json.rhai", max_steps: 1 }
		r, err := strict("q")
		assert(r == nil && err.kind == "validation" && #err.broken_scripts == 1 && err.broken_scripts[1] == "json.rhai")
		assert(string.find(err.reason, "json.rhai: validate:", 1, true) != nil)
		lenient := agent { name: "lenient", model: "m", validator: "json.rhai", on_validator_error: "accept" }
		r, err = lenient("q")
		assert(err == nil && r.status == "done" && r.text == "not json" && r.validation.status == "unchecked")
		assert(r.validation.broken_scripts[1] == "json.rhai" && #r.validation.warnings == 1)
		print("done")
	`, final("not json"))
	if err != nil {
		t.Fatal(err)
	}
	if e.out.String() != "done\n" || len(p.reqs) != 2 {
		t.Errorf("output %q, turns %d", e.out.String(), len(p.reqs))
	}
	if got := e.rt.BrokenScripts(); len(got) != 1 || got[0] != "json.rhai" {
		t.Errorf("broken scripts %v", got)
	}
	n := 0
	for _, ev := range e.trace.Events() {
		if ev.Type == "validator_broken" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("validator_broken events %d, want 1 (once per script)", n)
	}
}

// A validator that cannot load stops the program where the agent is made,
// before any token is spent.
func TestValidatorFailsEarly(t *testing.T) {
	for file, want := range map[string]string{
		"missing.rhai":       "RHAI-BLU-003",
		"broken_syntax.rhai": "RHAI-SYN-001",
		"two_params.rhai":    "RHAI-VAL-002",
	} {
		_, p, err := runValidated(t, `
			a := agent { name: "lead", model: "m", validator: "`+file+`" }
			r, e := a("q")
		`, final("x"))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "agent lead") || len(p.reqs) != 0 {
			t.Errorf("%s: %v (turns %d)", file, err, len(p.reqs))
		}
	}
	_, _, err := runValidated(t, `a := llm.agent("x", func() { return {} }, nil, {validator: "decision.rhai", on_validator_error: "ignore"})`, final("x"))
	if err == nil || !strings.Contains(err.Error(), `on_validator_error must be "reject" or "accept", got "ignore"`) {
		t.Errorf("bad policy: %v", err)
	}
}

func TestOutputSchemaAndShape(t *testing.T) {
	_, p, err := runValidated(t, `
		schema := {type: "object", required: ["risk"], properties: {risk: {type: "string", enum: ["low", "high"]}}}
		a := agent { name: "s", model: "m", output_schema: schema, output_repair: true }
		r, err := a("q")
		assert(err == nil && r.value.risk == "high")
		b := agent { name: "shape", model: "m", output: {risk: "low|high", score: 1}, output_retries: 1 }
		r, err = b("q")
		assert(err == nil && r.value.score == 3)
	`, final(`{"risk": "medium"}`), final(`{"risk": "high"}`), final(`{"risk": "high"}`), final(`{"risk": "high", "score": 3}`))
	if err != nil {
		t.Fatal(err)
	}
	rf := p.reqs[0].ResponseFormat.(map[string]any)
	if rf["type"] != "json_schema" || !strings.Contains(p.reqs[1].Messages[2].Text, "does not match the output schema") {
		t.Errorf("schema turn %+v / %+v", rf, p.reqs[1].Messages)
	}
	if !strings.Contains(p.reqs[3].Messages[2].Text, "score is missing") {
		t.Errorf("shape feedback %+v", p.reqs[3].Messages)
	}
}

// Without output_retries or output_repair, an answer that does not match
// the declared shape fails the agent at once (upstream's loop), with no
// repair turn.
func TestShapeRefusalWithoutRepair(t *testing.T) {
	_, p, err := runValidated(t, `
		a := agent { name: "shape", model: "m", output: {risk: "low|high"} }
		r, err := a("q")
		assert(r == nil && err.kind == "validation" && string.find(err.reason, "risk is missing", 1, true) != nil)
	`, final(`{"other": 1}`), final(`{"risk": "low"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.reqs) != 1 {
		t.Errorf("turns %d, want 1", len(p.reqs))
	}
}
