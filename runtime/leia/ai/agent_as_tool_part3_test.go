package ai

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

// Agent as tool (the composition boundary of the seed's "Agent As Tool"
// section): metadata copying, an argument-only provider-facing input,
// the agent_tool.v1 trace contract, and pending approvals surfacing as
// structured errors rather than tool text.
func TestAgentAsToolComposition(t *testing.T) {
	p := &script3{results: []llm.TurnResult{
		{Status: llm.StatusToolCalls, Calls: []llm.ToolCall{{ID: "call_1", Tool: "handoff_review", Args: map[string]any{"topic": "checkout ownership"}}}},
		{Status: llm.StatusFinalAnswer, Text: `{"summary":"payment queue","owner":"payments","confidence":0.89}`},
		{Status: llm.StatusFinalAnswer, Text: "Final: route to payments."},
	}}
	r := mustRun3(t, `
specialist := agent {
    name: "specialist"
    model: "m-specialist"
    instructions: prompt { role: "system", text: "Return structured delegated review." }
    params: ["topic"]
    description: "Reviews one topic."
    output: {summary: "short finding", owner: "team", confidence: 1}
    max_steps: 1
}
handoff_review := llm.handoff(specialist, {name: "handoff_review", description: "Delegate the brief.", requires: ["none"]})
assert(handoff_review.name == "handoff_review" && handoff_review.description == "Delegate the brief.")
assert(handoff_review.params[1] == "topic" && handoff_review.requires[1] == "none")
assert(handoff_review.output.summary == "short finding" && handoff_review.trace_contract == "agent_tool.v1")
assert(handoff_review.__llm_agent_tool == true)
d := llm.delegate(specialist)
assert(d.name == "specialist" && d.description == "Reviews one topic." && d.trace_contract == "agent_tool.v1")
a := llm.agent_as_tool(specialist, {params: ["subject"]})
assert(a.params[1] == "subject")
supervisor := agent {
    name: "supervisor"
    model: "m-supervisor"
    instructions: prompt { role: "system", text: "Use handoff_review first." }
    tools: [handoff_review]
    params: ["question"]
    max_steps: 2
}
res, err := supervisor("Review checkout incident ownership.")
assert(err == nil && res.text == "Final: route to payments.")
tool_msg := res.history[4]
assert(tool_msg.role == "tool" && tool_msg.tool_use_id == "call_1")
assert(tool_msg.value.summary == "payment queue" && tool_msg.value.confidence == 0.89)
print("ok")
`, p)
	if len(p.requests) != 3 {
		t.Fatalf("requests = %d", len(p.requests))
	}
	tool := p.requests[0].Tools
	if len(tool) != 1 || tool[0].Name != "handoff_review" || tool[0].Schema != nil ||
		strings.Join(tool[0].Params, ",") != "topic" || strings.Join(tool[0].Requires, ",") != "none" {
		t.Fatalf("provider-facing tool = %+v: arguments only, never the agent's output shape", tool)
	}
	nested := p.requests[1]
	if nested.Model != "m-specialist" || len(nested.Tools) != 0 || len(nested.Messages) != 2 || nested.Messages[1].Text != "checkout ownership" {
		t.Fatalf("nested request = %+v", nested)
	}
	final := p.requests[2].Messages
	if len(final) != 4 || final[2].ToolCall == nil || final[2].ToolCall.ID != "call_1" || final[3].ToolUseID != "call_1" {
		t.Fatalf("supervisor history = %+v", final)
	}
	if v, ok := final[3].Value.(map[string]any); !ok || v["owner"] != "payments" {
		t.Fatalf("tool result value = %#v", final[3].Value)
	}
	if r.lines()[0] != "ok" {
		t.Fatal(r.out)
	}
}

func TestAgentAsToolPendingAndStopped(t *testing.T) {
	p := &script3{results: []llm.TurnResult{
		{Status: llm.StatusToolCalls, Calls: []llm.ToolCall{{ID: "c1", Tool: "publish", Args: map[string]any{"id": "r1"}}}},
		{Status: llm.StatusStop, Reason: "refused"},
	}}
	mustRun3(t, `
publish := llm.tool("publish", func(id) { return id, nil }, {params: ["id"], requires: ["publish.web"]})
gated := llm.agent("gated", func(topic) {
    return {model: "m", user: topic, tools: [publish], approve_when: func(call) { return true }}, nil
})
tool := llm.agent_as_tool(gated)
value, err := llm.dispatch({id: "outer", tool: "gated", args: {topic: "ship it"}}, [tool])
assert(value == nil)
assert(err.kind == "pending" && err.pending.status == "pending" && err.pending.pending.tool == "publish")
assert(err.trace.type == "agent_tool" && err.trace.status == "pending" && err.trace.error.kind == "pending")
assert(err.trace.children[1].type == "agent" && err.trace.children[1].name == "gated")
v2, e2 := llm.dispatch({id: "outer2", tool: "gated", args: {topic: "again"}}, [tool])
assert(v2 == nil && e2.kind == "tool" && e2.message == "refused" && e2.trace.status == "stopped")
`, p)
	if len(p.requests) != 2 {
		t.Fatalf("requests = %d", len(p.requests))
	}
}

// A successful delegation carries the wrapper's trace node too, as
// errors and pending results do: {type: "agent_tool", name, status,
// children: [the agent's node, whose parent is the wrapper]}.
func TestAgentAsToolSuccessTrace(t *testing.T) {
	mustRun3(t, `
func specialist_config(topic) {
    return {model: "mock", user: topic}, nil
}
func specialist_flow(topic) {
    return {status: "done", value: {summary: "checked " .. topic}, text: "checked " .. topic}, nil
}
specialist := llm.agent("specialist", specialist_config, specialist_flow, {params: ["topic"]})
handoff := llm.handoff(specialist, {name: "handoff_specialist"})
value, err := llm.dispatch({id: "call_handoff", tool: "handoff_specialist", args: {topic: "trace"}}, [handoff])
assert(err == nil && value.summary == "checked trace")
assert(value.trace.type == "agent_tool" && value.trace.name == "handoff_specialist" && value.trace.status == "done")
assert(value.trace.error == nil && #value.trace.children == 1)
child := value.trace.children[1]
assert(child.type == "agent" && child.name == "specialist" && child.parent.name == "handoff_specialist")
// the agent's own result keeps its value untouched
direct, _ := specialist("again")
assert(direct.value.trace == nil)
print("ok")
`, &script3{})
}
