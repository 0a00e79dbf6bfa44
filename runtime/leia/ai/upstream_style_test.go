package ai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

// TestUpstreamStyleResearchAssistant runs the shape of upstream Leia's
// research-assistant record/replay scenario (our own program): a
// workflow whose second step is a turn over retrieved memory with a
// JSON Schema response format, validate_output on the workflow's text,
// sections sharing messages and a context wrapper, and a supervisor that
// hands off to a specialist agent. It records against a scripted
// provider, then replays the recorded turns strictly and checks both
// runs end with the same values and the requests have upstream's shapes.
func TestUpstreamStyleResearchAssistant(t *testing.T) {
	src := `
model {
    json: {provider_model: "mock-json"}
    supervisor: {provider_model: "mock-supervisor"}
    specialist: {provider_model: "mock-specialist"}
}
notes := llm.collection([
    llm.doc("The billing runbook says the invoices team owns sev1 billing incidents and refunds need finance sign-off.", {
        id: "billing", title: "Billing runbook", source: "local/billing", tags: ["billing", "invoices"]
    })
    llm.document({id: "search", title: "Search notes", text: "Search relevance tuning is unrelated to billing.", source: "local/search"})
])
memory := llm.retrieve(notes, "billing invoices sev1 owner", {limit: 1, label: "Research memory"})
finding_schema := llm.schema({finding: {type: "string", description: "Evidence-backed finding"}, owner: "string", confidence: "number"})
plan_schema := llm.schema({action: "string", risk: "string", owner: "string"})
flow := llm.workflow([
    llm.step("collect", func(ctx) { return {value: memory, text: "retrieved:" .. memory.matches[1].id}, nil }),
    llm.step("finding", func(ctx) {
        return turn {
            model: "json"
            messages: [
                prompt { role: "system", text: "Write one finding from the memory." }
                prompt { role: "user", text: ctx.input }
                llm.context(memory.matches, {label: "Research memory"})
            ]
            response_format: llm.output_schema("finding", finding_schema)
        }
    }),
])
flow_result, flow_err := flow.run("billing sev1")
assert(flow_err == nil)
finding_ok, finding_msg := llm.validate_output(flow_result.text, finding_schema)
plan, plan_err := llm.sections({
    model: "json"
    messages: [prompt { role: "system", text: "Plan the response as JSON." }, prompt { role: "user", text: flow_result.text }]
    context: llm.context(memory.matches, {label: "Section memory"})
    sections: [{name: "plan", instructions: "Return the action, risk and owner.", output: {action: "a", risk: "r", owner: "o"}}]
})
assert(plan_err == nil)
plan_ok, plan_msg := llm.validate_output(plan.sections[1].text, plan_schema)
specialist := agent {
    name: "specialist"
    model: "specialist"
    instructions: prompt { role: "system", text: "Return a structured review." }
    params: ["topic"]
    output: {summary: "s", owner: "o", confidence: 1}
    max_steps: 1
}
review := llm.handoff(specialist, {name: "review", description: "Ask the specialist.", requires: ["none"]})
supervisor := agent {
    name: "supervisor"
    model: "supervisor"
    instructions: prompt { role: "system", text: "Use review before answering." }
    tools: [review]
    params: ["question"]
    max_steps: 2
}
answer, answer_err := supervisor("Who handles the billing incident?")
assert(answer_err == nil)
print(memory.matches[1].id)
print(flow_result.steps[2].input)
print(tostring(finding_ok) .. "|" .. finding_msg)
print(plan.values.plan.owner)
print(tostring(plan_ok) .. "|" .. plan_msg)
print(answer.text)
print(answer.history[4].value.summary)
print(review.params[1] .. "|" .. review.output.summary)
`
	results := []llm.TurnResult{
		{Status: llm.StatusFinalAnswer, Text: `{"finding":"The invoices team owns sev1 billing incidents","owner":"invoices team","confidence":0.9}`},
		{Status: llm.StatusFinalAnswer, Text: `{"action":"page invoices on-call","risk":"high","owner":"invoices team"}`},
		{Status: llm.StatusToolCalls, Calls: []llm.ToolCall{{ID: "call_review_1", Tool: "review", Args: map[string]any{"topic": "billing ownership"}}}},
		{Status: llm.StatusFinalAnswer, Text: `{"summary":"invoices team should lead","owner":"invoices team","confidence":0.8}`},
		{Status: llm.StatusFinalAnswer, Text: "Final: the invoices team handles it, with finance sign-off for refunds."},
	}
	want := []string{"billing", "retrieved:billing", "true|", "invoices team", "true|",
		"Final: the invoices team handles it, with finance sign-off for refunds.", "invoices team should lead", "topic|s"}

	rec := &llm.Recorder{}
	p := &script3{results: results}
	recorded := mustRun3(t, src, rec.Wrap(p))
	if got := recorded.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded run printed:\n%s\nwant:\n%s", recorded.out, strings.Join(want, "\n"))
	}
	reqs := p.requests
	if len(reqs) != 5 {
		t.Fatalf("requests = %d", len(reqs))
	}
	f := reqs[0]
	if f.Model != "mock-json" || len(f.Messages) != 3 || f.Messages[1].Text != "retrieved:billing" ||
		!strings.HasPrefix(f.Messages[2].Text, "Research memory:\n[billing] Billing runbook") || strings.Contains(f.Messages[2].Text, "[search]") {
		t.Errorf("finding request = %+v", f.Messages)
	}
	rf, _ := json.Marshal(f.ResponseFormat)
	if !strings.Contains(string(rf), `"name":"finding"`) || !strings.Contains(string(rf), `"strict":true`) ||
		!strings.Contains(string(rf), `"required":["finding","owner","confidence"]`) || !strings.Contains(string(rf), `"additionalProperties":false`) {
		t.Errorf("finding response_format = %s", rf)
	}
	s := reqs[1]
	if len(s.Messages) != 4 || s.Messages[0].Text != "Plan the response as JSON." || !strings.Contains(s.Messages[1].Text, `"owner":"invoices team"`) ||
		s.Messages[2].Text != "Return the action, risk and owner." || !strings.HasPrefix(s.Messages[3].Text, "Section memory:") {
		t.Errorf("section messages = %q", msgTexts(s))
	}
	if sv := reqs[2]; sv.Model != "mock-supervisor" || len(sv.Tools) != 1 || sv.Tools[0].Name != "review" ||
		strings.Join(sv.Tools[0].Params, ",") != "topic" || strings.Join(sv.Tools[0].Requires, ",") != "none" || sv.Tools[0].Schema != nil {
		t.Errorf("supervisor tools = %+v", sv.Tools)
	}
	if sp := reqs[3]; sp.Model != "mock-specialist" || len(sp.Messages) != 2 || sp.Messages[1].Text != "billing ownership" {
		t.Errorf("specialist request = %+v", sp)
	}
	if fin := reqs[4]; len(fin.Messages) != 4 || fin.Messages[3].ToolUseID != "call_review_1" {
		t.Errorf("final supervisor messages = %+v", fin.Messages)
	}

	replay := llm.NewReplay(rec.Records())
	replayed := mustRun3(t, src, replay)
	if err := replay.Finish(); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if replayed.out != recorded.out {
		t.Fatalf("replay printed:\n%s\nrecording printed:\n%s", replayed.out, recorded.out)
	}
}
