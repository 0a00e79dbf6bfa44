package harn

import "testing"

func TestWorkflowRuns(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a condition takes the edge of its branch", `
let g = workflow_graph({entry: "c", nodes: {c: {kind: "condition", metadata: {contains_text: "yes"}}, a: {kind: "stage"}, b: {kind: "stage"}},
  edges: [{from: "c", to: "a", branch: "true"}, {from: "c", to: "b", branch: "false"}]})
let r = workflow_execute("t", g, [artifact({text: "no"})])
println("${r.run.stages[0].branch} ${r.run.stages[1].node_id} ${len(r.run.stages)}")
`, "false b 2\n"},
		{"a join waits for its pending inputs", `
let g = workflow_graph({entry: "f", nodes: {f: {kind: "fork"}, a: {kind: "stage"}, j: {kind: "join"}, b: {kind: "stage"}},
  edges: [{from: "f", to: "j"}, {from: "f", to: "a"}, {from: "a", to: "b"}, {from: "b", to: "j"}]})
let r = workflow_execute("t", g, [])
println(join(r.run.stages.map({ s -> s.node_id }), ","))
`, "f,a,b,j\n"},
		{"map joins keep all, the first or a quorum", `
for j in [{strategy: "all"}, {strategy: "first"}, {strategy: "quorum", min_completed: 2}] {
  let g = workflow_graph({entry: "m", nodes: {m: {kind: "map", map_policy: {items: [1, 2, 3, 4]}, join_policy: j}}})
  println(len(workflow_execute("t", g, []).artifacts))
}
`, "4\n1\n2\n"},
		{"max_steps stops a cycle", `
let g = workflow_graph({entry: "a", nodes: {a: {kind: "stage"}, b: {kind: "stage"}}, edges: [{from: "a", to: "b"}, {from: "b", to: "a"}]})
let r = workflow_execute("t", g, [], {max_steps: 5})
println("${r.status} ${len(r.run.stages)}")
`, "max_steps_exceeded 5\n"},
		{"a verify node fails its assertion", `
let g = workflow_graph({entry: "v", nodes: {v: {kind: "verify", mode: "llm", model_policy: {provider: "mock"}, verify: {assert_text: "absent"}}}})
let s = workflow_execute("t", g, []).run.stages[0]
println("${s.branch} ${s.outcome} ${s.artifacts[0].kind}")
`, "failed verification_failed verification_result\n"},
		{"a ceiling rejects tools and side effects", `
var tools = tool_registry()
tools = tool_define(tools, "run", "Run", {handler: { a -> "" }, parameters: {}})
let g = workflow_graph({entry: "a", nodes: {a: {kind: "stage", tools: tools, capability_policy: {side_effect_level: "network"}}}})
for e in workflow_validate(g, {tools: ["read"], side_effect_level: "read_only"}).errors { println(e) }
`, "node a side_effect_level network exceeds the host ceiling read_only\nnode a tool run is not allowed by the host ceiling\n"},
		{"an update waits for its response", `
let t = spawn { workflow.update("w", "bump", 1, {timeout_ms: 5000}) }
var m = nil
while m == nil { m = workflow.receive("w"); sleep(1ms) }
workflow.respond_update("w", m.request_id, m.payload + 1)
println(await(t))
println(workflow.status("w").pending_count)
`, "2\n0\n"},
		{"an unanswered update times out", `
let r = try { workflow.update("w", "x", nil, {timeout_ms: 1}) }
println(contains(unwrap_err(r), "timed out"))
`, "true\n"},
		{"run_record_diff reports changed stages", `
let a = run_record({id: "a", status: "completed", stages: [{node_id: "x", status: "completed", outcome: "success"}]})
let b = run_record({id: "b", status: "completed", stages: [{node_id: "x", status: "completed", outcome: "success"}, {node_id: "y", status: "failed"}]})
let d = run_record_diff(a, b)
println("${d.identical} ${d.stage_diffs[0].node_id} ${d.stage_diffs[0].change}")
println(run_record_eval(b, run_record_fixture(a)).pass)
`, "false y added\ntrue\n"},
		{"a review decision is derived from the review and the diff", `
let d = artifact_diff("a.txt", "x\ny", "x\nz")
let r = artifact_diff_review(d, "ok")
let dec = artifact_review_decision(r, "accepted")
println(d.text)
println("${dec.kind} ${dec.lineage[0] == d.id} ${dec.lineage[1] == r.id} ${dec.decision}")
`, "--- a/a.txt\n+++ b/a.txt\n x\n-y\n+z\n\nreview_decision true true accepted\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runSource(t, tc.src, runOpts{})
			if err != nil {
				t.Fatalf("run: %v\n%s", err, got)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
