package ai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// The seed's "must not" for every outcome, event and envelope helper: no
// raw text, snippet, prompt, completion or credential in what they
// return. Documents, messages, tool arguments and results here carry a
// fake secret and prompt text; the test runs every projection on them
// (with every alias) and requires that neither string appears anywhere
// in the returned tables, nor in the host trace events of a run that
// feeds the same documents to turns, workflows and sections. Identity
// fields (ids, replay keys, hashes, tool and capability names) are the
// caller's labels and are copied as given, as the seed allows; the
// secret and the prompt travel here as content, where they must not be
// copied.

const (
	fakeSecret = "sk-test-FAKE-SECRET-0123456789abcdef"
	promptText = "PROMPT-TEXT: summarize the confidential merger terms"
)

const leakProgram = `
SECRET := "` + fakeSecret + `"
PROMPT := "` + promptText + `"
docs := llm.collection({
    llm.doc(PROMPT .. " " .. SECRET, {id: "memo", title: "Merger memo", source: "local/memo", tags: [SECRET], notes: PROMPT})
    llm.document({id: "plan", title: "Plan", text: "checkout plan " .. SECRET, sections: {risk: PROMPT, keys: SECRET}})
    llm.doc(string.rep("merger ", 40) .. SECRET)
})
chunks := llm.chunks(docs)
ctx := llm.retrieve(docs, "merger checkout", {limit: 2})
ev := llm.evidence(chunks, {label: "Evidence"})
tool := llm.tool("lookup", func(q) { return SECRET, nil }, {params: ["q"], description: PROMPT, requires: ["net.http"]})
_G.results = {}
results := _G.results
func keep(name, v) { results[#results + 1] = {name: name, value: v} }

for _, f := range ["memory_outcome", "memoryOutcome", "retrieval_outcome", "retrievalOutcome"] {
    for _, src := range [ctx, llm.context(docs), docs, ctx.matches, chunks] {
        o := llm[f](src, {query: "merger checkout", workflow_run_id: "wf"})
        keep(f, o)
        for _, e := range ["memory_outcome_event", "memoryOutcomeEvent", "memory_outcome_trace_event", "memoryOutcomeTraceEvent", "retrieval_outcome_event", "retrievalOutcomeEvent"] {
            keep(e, llm[e](o, {trace_id: "t"}))
        }
    }
}
for _, f := range ["evidence_outcome", "evidenceOutcome", "citation_outcome", "citationOutcome"] {
    for _, src := range [ev, ctx, docs, chunks.docs] {
        o := llm[f](src, {report_id: "r1"})
        keep(f, o)
        for _, e := range ["evidence_outcome_event", "evidenceOutcomeEvent", "evidence_outcome_trace_event", "evidenceOutcomeTraceEvent", "citation_outcome_event", "citationOutcomeEvent"] {
            keep(e, llm[e](o, {trace_id: "t"}))
        }
    }
}
for _, f := range ["policy_outcome", "policyOutcome"] {
    o := llm[f]([tool], llm.policy())
    keep(f, o)
    for _, e := range ["policy_outcome_event", "policyOutcomeEvent", "policy_outcome_trace_event", "policyOutcomeTraceEvent"] {
        keep(e, llm[e](o))
    }
}
_, policy_err := llm.check_policy([tool])
keep("check_policy", policy_err)
for _, f := range ["budget_outcome", "budgetOutcome"] {
    for _, err := range [{kind: "budget", dimension: "tokens", limit: 1, used: 2, message: PROMPT .. SECRET}, {kind: "deadline", message: SECRET}] {
        o := llm[f](err)
        keep(f, o)
        for _, e := range ["budget_outcome_event", "budgetOutcomeEvent", "budget_outcome_trace_event"] {
            keep(e, llm[e](o))
        }
    }
}
trace := llm.approval_trace({token: SECRET, pending: {id: "c1", tool: "lookup", args: {q: PROMPT}}, approval: {ok: false, reason: PROMPT}, result: {status: "denied", value: SECRET}})
for _, e := range ["approval_trace_event", "approvalTraceEvent"] {
    keep(e, llm[e](trace, {trace_id: "t"}))
}
for _, f := range ["model_io_envelope", "modelIOEnvelope", "model_call_envelope", "modelCallEnvelope", "turn_envelope", "turnEnvelope"] {
    keep(f, llm[f]({
        model: "fast"
        request: {
            messages: [llm.system(PROMPT), llm.user(SECRET), ev]
            tools: [tool]
            headers: {Authorization: "Bearer " .. SECRET, ["X-Api-Key"]: SECRET, Cookie: SECRET}
            auth: {type: "bearer", token: SECRET, secret_ref: SECRET, api_key: SECRET}
        }
        response: {text: PROMPT .. SECRET, content: SECRET, tool_calls: [{name: "lookup", arguments: SECRET}]}
    }))
    keep(f, llm[f]({messages: [llm.user(PROMPT)], text: SECRET, raw_completion: SECRET}))
}
for _, f := range ["tool_outcome", "toolOutcome"] {
    for _, pair := range [[{id: "c1", tool: "lookup", args: {q: PROMPT}}, SECRET], [{id: "c2", tool: "lookup", args: {q: SECRET}}, {kind: "tool", message: PROMPT .. SECRET}], [msg.tool_error("c3", SECRET), nil], [msg.tool_result("c4", PROMPT), nil], [msg.assistant_call({id: "c5", tool: "lookup", args: {q: SECRET}}), nil]] {
        o := llm[f](pair[1], pair[2])
        keep(f, o)
        for _, e := range ["tool_outcome_event", "toolOutcomeEvent", "tool_outcome_trace_event", "toolOutcomeTraceEvent"] {
            keep(e, llm[e](o))
        }
    }
}
for _, f := range ["agent_state_checkpoint", "agentStateCheckpoint", "state_checkpoint", "stateCheckpoint"] {
    cp := llm[f]({agent_run_id: "r", input_refs: [{id: "i", value: SECRET, text: PROMPT, raw_input: SECRET}], output_refs: [{id: "o", content: PROMPT}], memory_refs: [{id: "m", token: SECRET, api_key: SECRET}], raw_prompt: PROMPT, credentials: SECRET})
    keep(f, cp)
    for _, e := range ["agent_state_checkpoint_event", "agentStateCheckpointEvent", "agent_state_checkpoint_trace_event"] {
        keep(e, llm[e](cp))
    }
}
rfx, _ := llm.replay_fixture([{replay_key: "k", request: {model: "m", messages: [llm.user(PROMPT)]}, response: {text: SECRET}}])
for _, req := range [[{model: "m", messages: [llm.user(PROMPT)]}, "k"], [{model: "m", messages: [llm.user(SECRET)]}, "k"], [{replay_key: SECRET}, "zz"]] {
    rfx.replay(req[1], req[2])
}
for _, e := range ["replay_trace_event", "replayTraceEvent"] {
    keep(e, llm[e](rfx.match({replay_key: "k", prompt: PROMPT, messages: [llm.user(SECRET)]})))
    keep(e, llm[e]({status: "mismatch", message: "replay identity mismatch on request_hash: got " .. SECRET .. " want " .. PROMPT, request: {text: PROMPT}, record: {response: SECRET}}))
}
for _, f := range ["replay_http_record", "replayHttpRecord", "replay_api_record", "replayApiRecord"] {
    keep(f, llm[f]({request: {method: "POST", url: "https://api.test/x?token=" .. SECRET, headers: {Authorization: "Bearer " .. SECRET, ["X-Api-Key"]: SECRET}, body: PROMPT, auth: {token: SECRET}}, response: {status: 200, body: SECRET, headers: {["Set-Cookie"]: SECRET}}}))
}
for _, f := range ["replay_artifact_record", "replayArtifactRecord"] {
    keep(f, llm[f]({artifact: {id: "a", uri: "https://user:" .. SECRET .. "@files.test/a?key=" .. SECRET, content: PROMPT .. SECRET}}))
}
for _, f := range ["tool_invocation_trace", "toolInvocationTrace"] {
    keep(f, llm[f]({tool_name: "lookup", args: {q: PROMPT}}, {answer: SECRET}))
}
g := llm.planning_graph([llm.plan_node("p", {description: "plan"})])
keep("planning_trace", llm.planning_trace(g))
keep("trace_envelope", llm.trace_envelope([results[2].value, results[#results - 3].value]))
keep("trace_summary", llm.trace_summary(llm.trace_envelope([results[2].value])))
`

func TestNoRawTextInOutcomesEventsAndEnvelopes(t *testing.T) {
	r := mustRun3(t, leakProgram, answers())
	list := r.interp.GetGlobal("results")
	items := Items(list)
	if len(items) < 150 {
		t.Fatalf("only %d projections were made", len(items))
	}
	seen := map[string]int{}
	for _, it := range items {
		name := StrField(it, "name")
		seen[name]++
		b, err := json.Marshal(ToGo(Field(it, "value")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := string(b)
		for _, bad := range []string{fakeSecret, "PROMPT-TEXT", "confidential merger terms"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s leaks %q: %s", name, bad, s)
			}
		}
	}
	for _, name := range []string{"memory_outcome_event", "retrievalOutcomeEvent", "evidence_outcome_trace_event", "citationOutcomeEvent",
		"policy_outcome_trace_event", "budget_outcome_event", "approval_trace_event", "turnEnvelope", "model_io_envelope", "check_policy",
		"tool_outcome_trace_event", "toolOutcome", "agent_state_checkpoint_event", "stateCheckpoint",
		"replay_trace_event", "replay_api_record", "replayArtifactRecord", "tool_invocation_trace"} {
		if seen[name] == 0 {
			t.Errorf("the test never ran %s", name)
		}
	}
}

// TestRunTraceCarriesNoRawText runs turns, a workflow and sections over
// the same documents and checks the host trace (what --trace writes).
func TestRunTraceCarriesNoRawText(t *testing.T) {
	p := &script3{results: []llm.TurnResult{
		{Status: llm.StatusFinalAnswer, Text: "reply with " + fakeSecret},
		{Status: llm.StatusToolCalls, Calls: []llm.ToolCall{{ID: "c1", Tool: "lookup", Args: map[string]any{"q": promptText}}}},
		{Status: llm.StatusFinalAnswer, Text: `{"section":"` + fakeSecret + `"}`},
		{Status: llm.StatusFinalAnswer, Text: "done"},
	}}
	r := mustRun3(t, leakProgram+`
flow := llm.workflow({
    llm.step("ask", func(c) { return llm.turn({model: "m", user: PROMPT, context: ctx}) }),
    llm.step("use", func(c) {
        return llm.agent("a", func(q) { return {model: "m", user: q, tools: [tool], max_steps: 1}, nil })(c.input)
    }),
})
res, err := flow.run(SECRET)
assert(err == nil && res.steps[1].text == "reply with " .. SECRET)
g, gerr := llm.sections({model: "m", user: PROMPT, evidence: ev, sections: [{name: "s", output: {section: "x"}}, {name: "t", prompt: SECRET}]})
assert(gerr == nil)
`, p)
	if len(r.trace.events) < 6 {
		t.Fatalf("trace events = %d", len(r.trace.events))
	}
	b, _ := json.Marshal(r.trace.events)
	for _, bad := range []string{fakeSecret, "PROMPT-TEXT", "confidential merger terms"} {
		if strings.Contains(string(b), bad) {
			t.Errorf("host trace leaks %q: %s", bad, b)
		}
	}
	types := map[string]bool{}
	for _, ev := range r.trace.events {
		types[ev.Type] = true
	}
	for _, want := range []string{"turn_start", "turn_end", "workflow_step", "section_done", "tool_call"} {
		if !types[want] {
			t.Errorf("trace has no %s event: %v", want, types)
		}
	}
	_ = leia.Nil
}
