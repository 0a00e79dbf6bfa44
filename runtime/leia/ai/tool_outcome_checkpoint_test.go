package ai

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestToolOutcome(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "success from a call and a result", src: `
call := {id: "call-1", tool: "lookup", args: {query: "raw argument", limit: 3}}
o := llm.tool_outcome(call, {answer: "raw result"}, {workflow_run_id: "wf", replay_key: "lookup:1"})
assert(o.kind == "tool_outcome" && o.schema_version == 1 && o.version == "tool_outcome.v1")
assert(o.ok == true && o.status == "ok" && o.result_status == "ok" && o.tool == "lookup" && o.tool_name == "lookup")
assert(o.tool_call_id == "call-1" && #o.arg_names == 2 && o.arg_names[1] == "query")
assert(o.result_present == true && o.result_type == "table" && o.result_ref == "call-1:result")
assert(o.redaction.raw_args_stored == false && o.redaction.policy == "tool_outcome_ref_only")
assert(o.args == nil && o.result == nil && o.workflow_run_id == "wf" && o.replay_key == "lookup:1")
e := llm.tool_outcome_event(o, {trace_id: "tools"})
assert(e.event_type == "tool_outcome" && e.status == "ok" && e.payload.tool_name == "lookup" && e.payload.arg_names[2] == "limit")
assert(e.correlation.correlation_id == "call-1" && e.correlation.workflow_run_id == "wf" && e.replay.replay_key == "lookup:1")
assert(e.redaction.raw_result_stored == false)
assert(llm.toolOutcomeTraceEvent(o).event_type == "tool_outcome" && llm.tool_outcome_trace_event(o).type == "tool_outcome")
`},
		{name: "errors and tool messages", src: `
o := llm.toolOutcome({id: "c2", tool: "lookup"}, {kind: "validation", message: "raw message with input"})
assert(o.ok == false && o.status == "error" && o.result_status == "error" && o.error_kind == "validation")
assert(o.message == "tool outcome error" && o.error_message == nil && o.error_message_present == true)
m := llm.tool_outcome(msg.tool_error("c3", "boom"))
assert(m.status == "error" && m.error_kind == "tool" && m.tool_call_id == "c3")
v := llm.tool_outcome(msg.tool_result("c4", 42))
assert(v.status == "ok" && v.result_type == "int" && v.tool_call_id == "c4")
a := llm.tool_outcome(msg.assistant_call({id: "c5", tool: "t", args: {x: 1}}))
assert(a.tool == "t" && a.tool_call_id == "c5" && a.arg_names[1] == "x" && a.result_type == "nil" && a.result_present == false)
`},
		{name: "arguments", src: `llm.tool_outcome("x")`, wantErr: "(tool call or tool message table expected)"},
	})
}

func TestAgentStateCheckpoint(t *testing.T) {
	r := mustRun3(t, `
state := {
    agent_run_id: "run-1", session_id: "s1", state_version: 3, turn_id: "t7", status: "paused"
    input_refs: [{ref_id: "in-1", kind: "message", digest: "sha256:abc", value: "raw input text"}]
    output_refs: [{id: "out-1", kind: "answer", text: "raw output text", summary: "short"}]
    memory_refs: []
}
cp := llm.agent_state_checkpoint(state, {workflow_run_id: "wf"})
assert(cp.kind == "agent_state_checkpoint" && cp.schema_version == 1 && cp.version == "agent_state_checkpoint.v1")
assert(cp.status == "paused" && cp.result_status == "ok" && cp.provider_free == true && cp.workflow_run_id == "wf")
assert(cp.input_refs[1].ref_id == "in-1" && cp.input_refs[1].value == nil && cp.output_refs[1].text == nil)
assert(cp.output_refs[1].summary == "short")
assert(cp.resume_token == "checkpoint:" .. cp.checkpoint_key && cp.checkpoint.key_algorithm == "sha256")
assert(cp.checkpoint.stable_across_replay == true && #cp.checkpoint.excluded_fields == 13)
assert(cp.redaction.policy == "agent_state_checkpoint_ref_only" && cp.redaction.raw_inputs_stored == false)
assert(cp.trace_correlation.agent_run_id == "run-1" && cp.trace_correlation.checkpoint_key == cp.checkpoint_key)
again := llm.stateCheckpoint(state, {workflow_run_id: "wf"})
assert(again.checkpoint_key == cp.checkpoint_key && again.cache_key == cp.cache_key && cp.cache_key != cp.checkpoint_key)
fixed := llm.agentStateCheckpoint(state, {checkpoint_key: "ck", cache_key: "cc", resume_token: "rt"})
assert(fixed.checkpoint_key == "ck" && fixed.cache_key == "cc" && fixed.resume_token == "rt")
e := llm.agent_state_checkpoint_event(cp, {trace_id: "cp"})
assert(e.event_type == "agent_state_checkpoint" && e.status == "paused" && e.payload.checkpoint_key == cp.checkpoint_key)
assert(e.payload.resume_token == nil && e.payload.resume_token_present == true && e.payload.input_ref_count == 1)
assert(e.correlation.correlation_id == "run-1" && e.correlation.agent_run_id == "run-1")
assert(llm.agent_state_checkpoint_trace_event(cp).type == "agent_state_checkpoint")
print(cp.checkpoint_key)
print(cp.cache_key)
`, answers())
	// The key layout, recomputed independently of checkpoint.go.
	material := "|agent_run_id=run-1|session_id=s1|state_version=3|turn_id=t7|trace_id=|workflow_run_id=wf|workflow_step_id=" +
		"|input_refs=ref_id:in-1;id:;kind:message;digest:sha256:abc;summary:;raw_value_stored:;" +
		"|output_refs=ref_id:;id:out-1;kind:answer;digest:;summary:short;raw_value_stored:;" +
		"|memory_refs="
	for i, prefix := range []string{"checkpoint", "cache"} {
		sum := sha256.Sum256([]byte(prefix + material))
		want := "sha256:" + hex.EncodeToString(sum[:])
		if got := r.lines()[i]; got != want {
			t.Errorf("%s key = %s, want %s", prefix, got, want)
		}
	}
	if strings.Contains(r.out, "raw") {
		t.Fatal(r.out)
	}
}
