package ai

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Hostile inputs to the part-3 helpers: tables that contain themselves,
// tables shared so widely that a naive walk grows exponentially, deep
// nesting. Each must finish quickly with an ordinary result or a Leia
// error, never a Go panic or a hang.
func TestHostileTables(t *testing.T) {
	const dag = `
func wide(n) {
    t := {type: "object", properties: {}}
    for i := 1; i <= n; i++ {
        t = {type: "object", properties: {a: t, b: t, c: t}, matches: [t, t], docs: nil}
    }
    return t
}
`
	cases := []struct{ name, src string }{
		{"self-referencing schema", `
s := {type: "object", properties: {}}
s.properties.self = s
s.items = s
x := llm.schema(s)
ok, why := llm.validate_output({self: {self: {}}}, s)
info := llm.schema_info(s)
f := llm.output_schema("x", s)`},
		{"exponentially shared schema", dag + `
x := llm.schema(wide(40))
ok, _ := llm.validate_output({a: {}}, wide(40))`},
		{"self-referencing documents", `
d := {text: "x", id: "d"}
d.docs = d
c := llm.collection(d)
r := llm.retrieve(d, "x")
ctx := llm.context(d)
e := llm.evidence({docs: {docs: {docs: d}}})`},
		{"cyclic request context", `
ctx := {docs: {}}
ctx.docs.docs = ctx.docs
r, err := llm.turn({model: "m", user: "q", context: ctx})`},
		{"shared and cyclic outcome inputs", dag + `
w := wide(30)
w.self = w
m := llm.memory_outcome({matches: [w, w, w]}, {query: w})
e := llm.memory_outcome_event(m, {correlation: w, trace_id: "t"})
env := llm.trace_envelope([e, e, {payload: w}])
s := llm.trace_summary(env)
a := llm.trace_assert(env, {require_payload_fields: ["x"]})
cp := llm.agent_state_checkpoint({input_refs: [w, w]}, {redaction: w})
ce := llm.agent_state_checkpoint_event(cp)
me := llm.model_io_envelope({request: w, response: w, usage: w}, {schema: w})
p := llm.planning_graph([w, w], [w], {capability_refs: w})
pt := llm.planning_trace(p, [w, w])
ap := llm.approval_trace_event(llm.approval_trace({pending: w, approval: w, result: w, policy: w}), {payload: w})
wf := llm.workflow_graph({stages: [llm.stage("a", func(c) { return w, nil }, {output_schema: w, depends_on: []})]})
res, _ := wf.run(w)`},
		{"deep nesting", `
t := {}
cur := t
for i := 1; i <= 500; i++ { cur.properties = {x: {}}; cur.type = "object"; cur = cur.properties.x }
x := llm.schema(t)
d := llm.doc(t)
o := llm.evidence_outcome({matches: [t]})`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run3(t, c.src, answers("ok"))
			if r.err != nil && strings.Contains(r.err.Error(), "panic") {
				t.Fatalf("Go panic escaped: %v", r.err)
			}
			if r.err != nil {
				t.Fatalf("hostile input made the helper fail: %v", r.err)
			}
			// No clock here (it flaked under load): the bound that keeps
			// the shared cases linear is the walk's size, checked below.
		})
	}
}

// TestSharedTableWalkIsBounded: converting a table shared 5^40 ways over
// (what a naive walk of the exponentially shared schema would visit)
// visits maxConvertNodes values, plus at most the fan-out left at each
// open level: a size bound, where TestHostileTables had a wall-clock one.
func TestSharedTableWalkIsBounded(t *testing.T) {
	r := mustRun3(t, `
w := {type: "object", properties: {}}
for i := 1; i <= 40; i++ {
    w = {type: "object", properties: {a: w, b: w, c: w}, matches: [w, w], docs: nil}
}
wide := w`, answers("ok"))
	c := converter{onPath: map[*leia.Table]bool{}}
	c.toGo(r.interp.GetGlobal("wide"), 0)
	if bound := maxConvertNodes + 8*maxConvertDepth; c.nodes > bound || c.nodes < maxConvertNodes {
		t.Fatalf("the walk visited %d values, want the cap %d (at most %d)", c.nodes, maxConvertNodes, bound)
	}
}
