package ai

import (
	"strings"
	"testing"
)

func TestWorkflow(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		provider *script3
		requests int    // turns the provider must have seen
		wantErr  string // a run error containing this, "" for success
	}{
		{name: "step context and chaining", src: `
flow := llm.workflow({
    llm.step("draft", func(ctx) {
        assert(ctx.name == "draft" && ctx.index == 1 && ctx.stage == false)
        assert(ctx.input == "topic" && ctx.initial_input == "topic")
        assert(ctx.previous == nil && #ctx.results == 0)
        return {text: "draft text", value: {n: 1}}, nil
    })
    llm.stage("revise", func(ctx) {
        assert(ctx.stage == true)
        assert(ctx.input == "draft text")
        assert(ctx.initial_input == "topic")
        assert(ctx.previous.name == "draft")
        assert(#ctx.results == 1 && ctx.results[1].value.n == 1)
        assert(ctx.context.draft.text == "draft text")
        assert(ctx.opts.output_ref == "final")
        return "final text", nil
    }, {output_ref: "final", capability: "docs.write"})
})
assert(#flow.steps == 2 && flow.steps[1].name == "draft" && flow.steps[2].stage == true)
res, err := flow.run("topic")
assert(err == nil)
assert(res.status == "ok" && res.err == nil)
assert(res.text == "final text" && res.value == "final text" && res.result == "final text")
assert(res.input == "topic")
assert(#res.steps == 2 && res.context.revise.index == 2)
assert(res.steps[1].value.n == 1 && res.steps[1].result.text == "draft text")
assert(res.steps[2].input == "draft text" && res.steps[2].mocked == false)
tr := res.trace
assert(tr.type == "workflow" && tr.name == "workflow" && tr.status == "ok" && #tr.children == 2)
step := res.steps[2].trace
assert(step.type == "workflow_step" && step.name == "revise" && step.status == "ok")
assert(step.parent.type == "workflow" && step.parent.status == "ok")
assert(step.metadata.index == 2 && step.metadata.stage == true && step.metadata.mocked == false)
assert(step.metadata.output_ref == "final" && step.metadata.capability == "docs.write")
assert(step.error == nil)
`},
		{name: "plain functions and value chaining", src: `
flow := llm.workflow({
    func(ctx) { return {value: 41}, nil },
    func(ctx) { return ctx.input + 1, nil },
})
res, err := flow.run(nil)
assert(err == nil)
assert(res.steps[1].name == "step_1" && res.steps[2].name == "step_2")
assert(res.steps[1].text == "41")
assert(res.steps[2].input == "41")
assert(res.value == 42)
`},
		{name: "a failing step stops the run and returns its error", src: `
ran := false
flow := llm.workflow({
    llm.step("a", func(ctx) { return "ok", nil }),
    llm.step("b", func(ctx) { return nil, {kind: "tool", message: "broken"} }),
    llm.step("c", func(ctx) { ran = true; return "late", nil }),
})
res, err := flow.run("x")
assert(err.kind == "tool" && err.message == "broken")
assert(res.status == "error" && res.err.kind == "tool")
assert(#res.steps == 2 && ran == false)
assert(res.steps[2].status == "error" && res.steps[2].trace.error.kind == "tool")
assert(res.trace.status == "error" && res.trace.error.kind == "tool")
assert(res.steps[1].trace.parent.status == "error")
`},
		{name: "fixtures by fixture_key, then name, then index", src: `
calls := 0
body := func(ctx) { calls = calls + 1; return "live", nil }
flow := llm.workflow({
    llm.stage("plan", body, {fixture_key: "plan_fixture"}),
    llm.step("draft", body),
    llm.step("check", body),
    llm.step("final", body),
})
mocked := flow.mock({
    plan_fixture: {text: "from key"},
    plan: {text: "from name (must lose to the key)"},
    draft: {result: {text: "raw", value: 7}},
    [3]: "plain value",
})
res, err := mocked.run("in")
assert(err == nil)
assert(res.steps[1].text == "from key" && res.steps[1].mocked == true)
assert(res.steps[1].trace.metadata.fixture_key == "plan_fixture")
assert(res.steps[2].value == 7 && res.steps[2].text == "raw")
assert(res.steps[3].result == "plain value" && res.steps[3].text == "plain value")
assert(res.steps[4].mocked == false && res.steps[4].text == "live")
assert(calls == 1)
// the original workflow is unchanged
res2, _ := flow.run("in")
assert(res2.steps[1].mocked == false && calls == 5)
`},
		{name: "run options mock and fixture errors", src: `
flow := llm.workflow({llm.step("a", func(ctx) { return "live", nil }), llm.step("b", func(ctx) { return "never", nil })})
res, err := flow.run("x", {mock: {a: {text: "m"}, b: {err: {kind: "validation", message: "fixture failure"}}}})
assert(res.steps[1].text == "m")
assert(err.kind == "validation" && res.steps[2].mocked == true && res.status == "error")
`},
		{name: "colon calls work like dot calls", src: `
flow := llm.workflow({llm.step("a", func(ctx) { return ctx.input .. "!", nil })})
res, err := flow:run("hi")
assert(err == nil && res.text == "hi!")
m := flow:mock({a: "fixed"})
r2, _ := m:run("hi")
assert(r2.text == "fixed")
`},
		{name: "steps may make turns; mocked steps make none", provider: answers("drafted"), requests: 1, src: `
flow := llm.workflow({
    llm.step("draft", func(ctx) {
        return llm.turn({model: "m", messages: [llm.user(ctx.input)]})
    }),
    llm.step("review", func(ctx) {
        return llm.turn({model: "m", messages: [llm.user(ctx.input)]})
    }),
})
res, err := flow.mock({review: {text: "approved"}}).run("write")
assert(err == nil)
assert(res.steps[1].text == "drafted" && res.steps[1].result.status == "final_answer")
assert(res.text == "approved")
`},
		{name: "steps table field and a single step", src: `
flow := llm.workflow({steps: [llm.step("only", func(ctx) { return "one", nil })]})
res, _ := flow.run()
assert(res.text == "one" && #res.steps == 1)
single := llm.workflow(llm.step("solo", func(ctx) { return "s", nil }))
r2, _ := single.run()
assert(r2.steps[1].name == "solo")
`},
		{name: "no steps", src: `llm.workflow({})`, wantErr: "llm.workflow requires at least one step"},
		{name: "bad step", src: `llm.workflow({42})`, wantErr: "bad workflow step #1 (step table or function expected)"},
		{name: "step without fn", src: `llm.workflow({{name: "x"}})`, wantErr: "bad workflow step #1 (fn function expected)"},
		{name: "bad llm.step arguments", src: `llm.step(1, 2)`, wantErr: "bad argument to 'llm.step' (name, function expected)"},
		{name: "bad llm.workflow argument", src: `llm.workflow("x")`, wantErr: "bad argument #1 to 'llm.workflow' (steps table expected)"},
		{name: "mock needs a table", src: `llm.workflow({func(c) { return 1, nil }}).mock(3)`, wantErr: "fixtures table expected"},
		{name: "a step raising an error stops the program", src: `
llm.workflow({llm.step("boom", func(ctx) { error("step exploded") })}).run()`, wantErr: "step exploded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p *script3
			if c.provider != nil {
				p = c.provider
			} else {
				p = answers()
			}
			r := run3(t, c.src, p)
			if c.wantErr == "" && r.err != nil {
				t.Fatalf("run failed: %v\n%s", r.err, r.out)
			}
			if c.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, c.wantErr)
			}
			if len(p.requests) != c.requests {
				t.Fatalf("provider saw %d requests, want %d", len(p.requests), c.requests)
			}
		})
	}
}

func TestWorkflowGraph(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		wantErr string
	}{
		{name: "graph metadata, ordered run and stage trace metadata", src: `
plan := func(ctx) { return {text: "plan:" .. ctx.input}, nil }
final := func(ctx) { return {text: "final:" .. ctx.input}, nil }
g := llm.workflow_graph({
    workflow_id: "research-flow"
    entrypoint: "ai.workflow.orchestrate"
    stages: {
        llm.stage("plan", plan, {output_ref: "plan_result", capability: "docs.read", fixture_key: "plan_fx"})
        llm.stage("finalize", final, {
            depends_on: {"plan"}
            input_ref: "plan_result"
            output_ref: "final_result"
            input_schema: {type: "string"}
            output_schema: {type: "string"}
        })
    }
    edges: {{from: "plan", to: "finalize"}}
})
assert(g.workflow_id == "research-flow" && g.entrypoint == "ai.workflow.orchestrate")
meta := g.graph
assert(meta.provider_free == true && meta.live_network == false && meta.real_dependency_imports == false)
assert(#meta.stages == 2 && meta.stages[1].id == "plan" && meta.stages[1].stage == true)
assert(#meta.stages[1].depends_on == 0 && meta.stages[1].capability == "docs.read")
assert(meta.stages[1].fixture_key == "plan_fx")
assert(meta.stages[2].depends_on[1] == "plan" && meta.stages[2].input_ref == "plan_result")
assert(meta.stages[2].output_schema.type == "string")
assert(#meta.edges == 1 && meta.edges[1].from == "plan" && meta.edges[1].to == "finalize")
res, err := g.run("topic")
assert(err == nil)
assert(res.text == "final:plan:topic")
assert(res.workflow_id == "research-flow" && res.graph.entrypoint == "ai.workflow.orchestrate")
md := res.steps[2].trace.metadata
assert(md.depends_on[1] == "plan" && md.input_ref == "plan_result" && md.output_ref == "final_result")
assert(md.input_schema.type == "string" && md.output_schema.type == "string")
assert(res.steps[1].trace.metadata.capability == "docs.read")
// fixtures from the config, and positional edges
g2 := llm.workflow_graph({stages: [llm.stage("a", plan), llm.stage("b", final)], edges: [["a", "b"]], fixtures: {a: {text: "fx"}}})
r2, _ := g2.run("t")
assert(r2.steps[1].mocked == true && r2.text == "final:fx")
assert(g2.workflow_id == "workflow" && g2.entrypoint == "workflow.run")
m := g.mock({plan_fx: {text: "mocked plan"}})
r3, _ := m.run("t")
assert(r3.text == "final:mocked plan" && r3.workflow_id == "research-flow")
`},
		{name: "depends on a later stage", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f, {depends_on: "b"}), llm.stage("b", f)]})`,
			wantErr: `stage "a" depends on unknown or later stage "b"`},
		{name: "depends on an unknown stage", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f), llm.stage("b", f, {depends_on: ["zzz"]})]})`,
			wantErr: `depends on unknown or later stage "zzz"`},
		{name: "duplicate stage", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f), llm.stage("a", f)]})`, wantErr: `duplicate stage "a"`},
		{name: "edge backwards", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f), llm.stage("b", f)], edges: [{from: "b", to: "a"}]})`,
			wantErr: `edge "b" -> "a" is not topologically ordered`},
		{name: "edge to itself", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f)], edges: [{from: "a", to: "a"}]})`,
			wantErr: `is not topologically ordered`},
		{name: "edge to an unknown stage", src: `
f := func(c) { return 1, nil }
llm.workflow_graph({stages: [llm.stage("a", f)], edges: [{from: "a", to: "q"}]})`,
			wantErr: `edge references unknown stage "a" -> "q"`},
		{name: "edges not a table", src: `
llm.workflow_graph({stages: [llm.stage("a", func(c) { return 1, nil })], edges: "a->b"})`, wantErr: "edges must be a table"},
		{name: "edge without endpoints", src: `
llm.workflow_graph({stages: [llm.stage("a", func(c) { return 1, nil })], edges: [{from: "a"}]})`,
			wantErr: "edge #1 requires from and to stages"},
		{name: "no stages", src: `llm.workflow_graph({})`, wantErr: "llm.workflow_graph requires a stages table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := answers()
			r := run3(t, c.src, p)
			if c.wantErr == "" && r.err != nil {
				t.Fatalf("run failed: %v\n%s", r.err, r.out)
			}
			if c.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, c.wantErr)
			}
			if len(p.requests) != 0 {
				t.Fatalf("a workflow graph made %d provider requests of its own", len(p.requests))
			}
		})
	}
}
