package ai

import (
	"strings"
	"testing"
)

// metadataCase is one Leia snippet that asserts its own results; wantErr
// is a run error it must fail with instead.
type metadataCase struct{ name, src, wantErr string }

func runMetadataCases(t *testing.T, prelude string, cases []metadataCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := answers()
			r := run3(t, prelude+c.src, p)
			if c.wantErr == "" && r.err != nil {
				t.Fatalf("run failed: %v\n%s", r.err, r.out)
			}
			if c.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, c.wantErr)
			}
			if len(p.requests) != 0 {
				t.Fatalf("a provider-free helper made %d provider requests", len(p.requests))
			}
		})
	}
}

func TestRetrievalOutcomes(t *testing.T) {
	runMetadataCases(t, retrievalDocs+`
ctx := llm.retrieve(docs, "checkout payment sev2", {limit: 1, label: "Retrieved context"})
`, []metadataCase{
		{name: "memory outcome", src: `
o := llm.memory_outcome(ctx, {workflow_run_id: "wf-memory", workflow_step_id: "retrieve-runbook", component: "memory-rag-test"})
assert(o.kind == "memory_outcome" && o.version == "memory_outcome.v1" && o.source_kind == "retrieval")
assert(o.status == "matched" && o.result_status == "ok" && o.ok == true && o.empty == false)
assert(o.match_count == 1 && o.top_id == "runbook" && o.top_score > 0 && o.query == "checkout payment sev2")
assert(o.label == "Retrieved context" && o.component == "memory-rag-test" && o.workflow_run_id == "wf-memory")
assert(o.top_match.text == nil && o.match_refs[1].text == nil && o.match_refs[1].citation.snippet == nil)
assert(o.match_refs[1].rank == 1 && o.match_refs[1].citation.doc_id == "runbook")
e := llm.memory_outcome_event(o, {trace_id: "trace-memory", sequence: 1})
assert(e.event_type == "memory_outcome" && e.type == "memory_outcome" && e.status == "matched")
assert(e.payload.match_count == 1 && e.payload.top_id == "runbook" && #e.payload.match_refs == 1)
assert(e.correlation.workflow_run_id == "wf-memory" && e.correlation.correlation_id == "checkout payment sev2")
assert(e.correlation.trace_id == "trace-memory" && e.event_id == "trace-memory:event:1")
assert(e.timestamp_ms == 1796126400000 && e.provider_free == true && e.live_model == false)
assert(e.redaction.raw_text_stored == false && e.redaction.policy == "memory_outcome_ref_only")
assert(llm.memoryOutcomeTraceEvent(o).event_type == "memory_outcome" && llm.retrieval_outcome_event(o).status == "matched")
env := llm.trace_envelope([e], {trace_id: "trace-memory"})
gate := llm.trace_assert(env, {
    required_event_types: ["memory_outcome"]
    require_event_payload_fields: {memory_outcome: ["status", "result_status", "match_count", "match_refs", "top_match"]}
    require_correlation_fields: ["workflow_run_id", "workflow_step_id", "correlation_id"]
    max_status_counts: {matched: 1}
    deny_raw_prompt_stored: true
})
assert(gate.ok == true && gate.status == "ok" && #gate.findings == 0)
`},
		{name: "empty and aliased outcomes", src: `
o := llm.retrieval_outcome(llm.collection([]), {query: "nothing"})
assert(o.status == "empty" && o.result_status == "empty" && o.empty == true && o.match_count == 0 && o.source_kind == "collection")
assert(o.top_id == nil && llm.retrievalOutcome([]).source_kind == "memory")
`},
		{name: "evidence outcome", src: `
ev := llm.evidence(ctx.matches, {label: "Runbook evidence"})
o := llm.evidence_outcome(ev, {report_id: "report-42", section: "risk", turn_id: "t1"})
assert(o.kind == "evidence_outcome" && o.schema_version == 1 && o.version == "evidence_outcome.v1")
assert(o.source_kind == "evidence" && o.status == "cited" && o.result_status == "ok" && o.provider_free == true)
assert(o.evidence_count == 1 && o.citation_count == 1 && o.source_count == 1 && o.artifact_count == 1)
assert(o.top_id == "runbook" && o.top_source == "local/runbook" && o.top_artifact_id == "runbook")
assert(o.report_id == "report-42" && o.section == "risk" && o.turn_id == "t1")
assert(o.redaction.policy == "evidence_outcome_ref_only" && o.redaction.raw_snippet_stored == false)
assert(o.evidence_refs[1].text == nil && o.top_evidence.citation.snippet == nil)
e := llm.evidence_outcome_event(o, {trace_id: "evidence-review"})
assert(e.event_type == "evidence_outcome" && e.status == "cited" && e.payload.evidence_count == 1)
assert(e.correlation.correlation_id == "report-42" && e.correlation.turn_id == "t1")
assert(e.redaction.policy == "evidence_outcome_ref_only")
assert(llm.citation_outcome(ctx).source_kind == "evidence" && llm.citation_outcome({matches: ctx.matches}).source_kind == "retrieval" && llm.citationOutcomeEvent(o).event_type == "evidence_outcome")
assert(llm.evidence_outcome_trace_event(o, {event_type: "custom"}).event_type == "custom")
`},
		{name: "outcome arguments", src: `llm.memory_outcome("x")`, wantErr: "bad argument #1 to 'llm.memory_outcome' (memory table expected)"},
		{name: "outcome options", src: `llm.evidence_outcome({}, 3)`, wantErr: "bad argument #2 to 'llm.evidence_outcome' (options table expected)"},
	})
}

func TestPolicyBudgetApproval(t *testing.T) {
	runMetadataCases(t, `
lookup := llm.tool("local_lookup", func(topic) { return topic, nil }, {params: ["topic"], requires: ["local.replay.read"]})
fetch := llm.tool("network_fetch", func(url) { return url, nil }, {params: ["url"], requires: ["net.http"]})
submit := llm.tool("submit", func(id) { return id, nil }, {params: ["id"], capabilities: ["trading.submit"]})
`, []metadataCase{
		{name: "policy and check_policy", src: `
p := llm.policy()
assert(p.kind == "capability_policy" && p.version == "capability_policy.v1" && p.default == "deny_high_risk")
assert(#p.deny == 6 && p.deny[3] == "generated-code" && p.allow == nil)
ok, err := llm.check_policy([lookup], p)
assert(ok == true && err == nil)
_, e1 := llm.check_policy([lookup, fetch], p)
assert(e1.kind == "policy" && e1.capability == "net.http" && e1.class == "network" && e1.policy == "capability_policy.v1")
assert(e1.message == "capability denied by policy: net.http")
_, e2 := llm.checkPolicy(submit)
assert(e2.class == "trading")
ok3, _ := llm.check_policy([fetch], llm.policy({allow: ["net.http"]}))
assert(ok3 == true)
_, e4 := llm.check_policy([lookup], llm.policy({deny: ["local"]}))
assert(e4.class == "local")
for _, c := range ["secret.read", "generated_code.run", "publish:web", "portfolio-x", "credential.vault"] {
    _, e := llm.check_policy(llm.tool("t", func() {}, {requires: [c]}))
    assert(e != nil)
}
okn, _ := llm.check_policy(llm.tool("t", func() {}, {requires: ["none", "networking"]}))
assert(okn == true)
`},
		{name: "policy outcomes and events", src: `
o := llm.policy_outcome([lookup, submit], llm.policy(), {workflow_run_id: "wf"})
assert(o.kind == "policy_outcome" && o.version == "policy_outcome.v1" && o.status == "denied" && o.result_status == "blocked")
assert(o.denied == true && o.allowed == false && o.clean_skip == false && o.approval_required == true && o.side_effect_allowed == false)
assert(o.capability == "trading.submit" && o.class == "trading" && o.capabilities[1] == "local.replay.read")
assert(o.policy_version == "capability_policy.v1" && o.policy_default == "deny_high_risk")
a := llm.policyOutcome([lookup])
assert(a.status == "allowed" && a.allowed == true && a.side_effect_allowed == true && a.approval_required == false)
s := llm.policy_outcome([lookup], llm.policy(), {clean_skip: true, reason: "dependency missing", dependency: "pandas"})
assert(s.status == "skipped" && s.clean_skip == true && s.allowed == false && s.side_effect_allowed == false && s.dependency == "pandas")
e := llm.policy_outcome_event(o, {trace_id: "policy"})
assert(e.event_type == "policy_outcome" && e.status == "denied" && e.payload.class == "trading")
assert(e.payload.message == "policy outcome" && e.correlation.correlation_id == "trading.submit")
assert(e.correlation.workflow_run_id == "wf" && e.payload.capabilities[2] == "trading.submit")
assert(llm.policy_outcome_trace_event(a).payload.capability == "local.replay.read")
`},
		{name: "budget outcomes", src: `
b := llm.budget_outcome({kind: "budget", dimension: "tokens", limit: 10, used: 12, message: "llm budget exceeded: tokens"}, {turn_id: "t"})
assert(b.kind == "budget_outcome" && b.version == "budget_outcome.v1" && b.source_kind == "budget")
assert(b.status == "exceeded" && b.result_status == "blocked" && b.ok == false && b.blocked == true)
assert(b.dimension == "tokens" && b.limit == 10 && b.used == 12 && b.message == "llm budget exceeded: tokens" && b.turn_id == "t")
d := llm.budgetOutcome({kind: "deadline", message: "deadline exceeded"})
assert(d.status == "deadline" && d.blocked == true)
ok := llm.budget_outcome({})
assert(ok.status == "ok" && ok.ok == true && ok.source_kind == "")
odd := llm.budget_outcome({kind: "budget", message: "free text from somewhere"})
assert(odd.message == nil && odd.message_redacted == true)
e := llm.budget_outcome_event(b, {trace_id: "budget"})
assert(e.event_type == "budget_outcome" && e.status == "exceeded" && e.payload.dimension == "tokens")
assert(e.payload.message == "budget outcome" && e.correlation.correlation_id == "tokens" && e.correlation.turn_id == "t")
assert(llm.budget_outcome_trace_event(d).status == "deadline")
`},
		{name: "budget errors from the runtime project", src: `
_, err := llm.turn({model: "m", user: "q", budget: {turns: 0}})
b := llm.budget_outcome(err)
assert(b.status == "exceeded" && b.dimension == "turns" && b.message == "llm budget exceeded: turns")
`},
		{name: "approval traces", src: `
pending := {id: "call-1", tool: "submit", args: {id: "secret-arg"}, capability: "trading.submit"}
approval := {ok: false, reason: "needs human review", approval_id: "ap-1"}
tr := llm.approval_trace({token: "tok-123", pending: pending, approval: approval, result: {status: "denied", value: "raw"}})
assert(tr.kind == "approval_replay_trace" && tr.version == "approval_replay.v1")
assert(tr.token == "tok-123" && tr.pending.args.id == "secret-arg" && tr.policy.default == "deny_high_risk")
assert(tr.decision.status == "denied" && tr.decision.reason == "needs human review")
ok := llm.approvalTrace({approval: {ok: true}})
assert(ok.decision.status == "approved" && ok.decision.reason == nil)
e := llm.approval_trace_event(tr, {trace_id: "approvals"})
assert(e.event_type == "approval_replay_trace" && e.status == "denied")
assert(e.payload.decision == "denied" && e.payload.decision_status == "denied" && e.payload.result_status == "denied")
assert(e.payload.tool == "submit" && e.payload.operation == "submit" && e.payload.capability == "trading.submit")
assert(e.payload.policy_version == "capability_policy.v1" && e.payload.policy_default == "deny_high_risk")
assert(e.payload.reason == nil && e.payload.reason_present == true && e.payload.args == nil && e.payload.token == nil)
assert(e.correlation.tool_call_id == "call-1" && e.correlation.approval_id == "ap-1" && e.correlation.correlation_id == "call-1")
assert(llm.approval_trace_event(tr, {event_type: "pkg_approval"}).event_type == "pkg_approval")
assert(llm.approvalTraceEvent(ok).status == "approved")
`},
		{name: "policy arguments", src: `llm.policy(1)`, wantErr: "bad argument #1 to 'llm.policy' (table expected)"},
		{name: "policy arity", src: `llm.policy({}, {})`, wantErr: "(optional table expected)"},
		{name: "check_policy arguments", src: `llm.check_policy("x")`, wantErr: "(tool or tools table expected)"},
	})
}

func TestModelIOEnvelope(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "envelope shape", src: `
env := llm.model_io_envelope({
    model: "fast"
    provider: "mock"
    request: {
        messages: [llm.system("Summarize ACME."), llm.user("private question")]
        tools: [{name: "lookup"}]
        headers: {Authorization: "Bearer sk-live-123", ["Content-Type"]: "application/json", ["X-Trace"]: "abc"}
        auth: {type: "bearer", token: "sk-live-123", secret_ref: "vault:key"}
        temperature: 0
        max_tokens: 64
    }
    response: {finish_reason: "stop", text: "the answer", usage: {prompt_tokens: 8, completion_tokens: 5}, tool_calls: [{name: "lookup", arguments: "{}"}]}
}, {capability: "generic.ai.turn", workflow_run_id: "wf"})
assert(env.kind == "model_io_envelope" && env.schema_version == 1 && env.version == "model_io_envelope.v1")
assert(env.operation == "model.turn" && env.capability == "generic.ai.turn" && env.provider_free == true)
assert(env.model == "fast" && env.provider == "mock" && env.workflow_run_id == "wf" && env.secret_values_present == false)
assert(env.request.messages.count == 2 && env.request.messages.roles[2] == "user" && env.request.messages.raw_content_stored == false)
assert(env.request.tools.count == 1 && env.request.tools.names[1] == "lookup")
assert(env.request.headers.Authorization == "<redacted>" && env.request.headers["Content-Type"] == "application/json")
assert(env.request.headers["X-Trace"] == "<redacted>")
assert(env.request.auth.type == "bearer" && env.request.auth.token == "<redacted>" && env.request.auth.secret_ref == "<redacted>" && env.request.auth.redacted == true)
assert(env.request.temperature == 0 && env.request.max_tokens == 64 && env.request.raw_prompt_stored == false)
assert(env.response.text_present == true && env.response.text_bytes == 10 && env.response.text == nil)
assert(env.response.tool_calls.count == 1 && env.response.finish_reason == "stop" && env.response.raw_completion_stored == false)
assert(env.usage.total_tokens == 13 && env.summary.total_tokens == 13 && env.summary.message_count == 2)
assert(env.redaction.policy == "model_io_metadata_only" && env.redaction.headers_redacted == true)
assert(llm.turn_envelope({}).response.text_present == false && llm.modelCallEnvelope({}).request.messages.count == 0)
`},
		{name: "a turn result as the response", src: `
env := llm.modelIOEnvelope({model: "m", messages: [llm.user("hi")], response: {status: "tool_calls", calls: [{id: "c1", tool: "search", args: {q: "x"}}], usage: {input_tokens: 3, output_tokens: 4}}})
assert(env.response.tool_calls.names[1] == "search" && env.usage.total_tokens == 7 && env.request.messages.count == 1)
assert(env.response.status == "tool_calls")
`},
		{name: "envelope arguments", src: `llm.model_io_envelope()`, wantErr: "(model I/O table expected)"},
	})
}

func TestPlanningGraph(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "plan nodes, graph, validation and trace", src: `
plan := llm.plan_node("plan", {node_type: "transform", retry_policy: {max_attempts: 1, retryable: false, backoff: "none"}, capability: "docs.read"})
assert(plan.kind == "plan_node" && plan.version == "plan_node.v1" && plan.id == "plan" && plan.capability == "docs.read")
assert(#plan.depends_on == 0 && plan.merge_policy.mode == "none")
draft := llm.planNode("draft", {depends_on: "plan", retry_policy: {max_attempts: 3, retryable: true, backoff: "exponential"}})
merge := llm.plan_node("merge", {node_type: "merge", depends_on: ["plan", "draft"]})
g := llm.planning_graph([plan, draft, merge], {}, {id: "research-plan"})
assert(g.kind == "planning_graph" && g.version == "planning_graph.v1" && g.id == "research-plan")
assert(g.node_count == 3 && g.edge_count == 3 && g.edges[1].from == "plan" && g.edges[1].to == "draft")
assert(g.edges[1].edge_type == "control" && g.summary.merge_count == 1 && g.summary.retryable_count == 1)
assert(g.capability == "generic.planning.graph.define" && g.redaction.policy == "planning_graph_metadata_only")
v := llm.validate_planning_graph(g)
assert(v.ok == true && v.status == "ok" && v.finding_count == 0 && v.kind == "planning_graph_validation")
tr := llm.planning_trace(g, {}, {run_id: "research-plan:1"})
assert(tr.kind == "planning_trace" && tr.run_id == "research-plan:1" && tr.contract_id == "research-plan")
assert(#tr.events == 3 && tr.events[2].event_id == "draft:completed" && tr.events[2].evidence_kind == "plan.node.completed")
assert(tr.summary.plan_node_count == 3 && tr.summary.final_status == "completed")
tr2 := llm.planningTrace(g, [{evidence_kind: "plan.retry.attempt"}, {evidence_kind: "plan.merge.completed", attempt: 2}])
assert(tr2.summary.retry_attempt_count == 1 && tr2.summary.merge_count == 1 && tr2.events[1].event_id == "event-1")
assert(tr2.events[2].attempt == 2 && tr2.events[1].provider_free == true)
`},
		{name: "validation findings", src: `
bad := llm.planning_graph([{id: "a"}, {id: "a"}, {name: "c", node_type: ""}, 7], [{from: "c", to: "a"}, {from: "a", to: "zz"}, {from: "a"}], {live_model: true})
v := llm.validatePlanningGraph(bad)
assert(v.ok == false && v.status == "failed")
kinds := {}
for _, f := range v.findings { kinds[f.kind] = true }
assert(kinds.live_model && kinds.duplicate_node && kinds.acyclic && kinds.unknown_node && kinds.node_type == nil)
raw := llm.validate_planning_graph({provider_free: true, plan_nodes: [{id: "x", node_type: "", trace_evidence: []}], edges: [{from: "x", to: "x", edge_type: "control"}]})
rk := {}
for _, f := range raw.findings { rk[f.kind] = f.field }
assert(rk.node_type == "node_type" && rk.retry_policy == "retry_policy" && rk.acyclic == "edges" && rk.trace_evidence == nil)
empty := llm.validate_planning_graph({provider_free: true, plan_nodes: []})
assert(empty.findings[1].kind == "plan_nodes" && empty.finding_count == 1)
`},
		{name: "plan_node arguments", src: `llm.plan_node(3)`, wantErr: "bad argument #1 to 'llm.plan_node' (node id string expected)"},
	})
}

func TestReportArtifactContract(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "contract shape", src: `
c := llm.report_artifact_contract({name: "release_report", version: "report.v1"})
assert(c.name == "release_report" && c.version == "report.v1" && c.offline_verifiable == true && c.renderer_required == false)
assert(#c.required_markers == 6 && c.required_markers[5] == "stale_data_warning" && c.required_markers[6] == "ai_disclosure")
assert(c.manifest_template.contract == "report.v1" && c.manifest_template.renderer == "planned_not_rendered" && #c.manifest_template.warnings == 0)
s := c.schemas
assert(s.report_section.type == "object" && s.report_section.properties.order.type == "integer")
assert(s.report_section.properties.chart_refs.items.type == "string" && #s.report_section.required == 8)
assert(s.chart_spec.properties.artifact.type == "object" && s.artifact_manifest.properties.source_annotations.items.properties.stale.type == "boolean")
assert(s.source_annotation.required[7] == nil || s.source_annotation.required[7] != "license")
d := llm.reportArtifactContract()
assert(d.name == "report_artifact_contract" && d.version == "FR-GAP-012")
ok, msg := llm.validate_output({id: "s1", title: "Summary", order: 1, required: true, content: "text", chart_refs: [], source_refs: ["src1"], ai_disclosure: true}, s.report_section)
assert(ok == true && msg == "")
bad, why := llm.validate_output({id: "s1", title: "Summary", order: "first"}, s.report_section)
assert(bad == false && why != "")
`},
		{name: "contract arguments", src: `llm.report_artifact_contract("x")`, wantErr: "(options table expected)"},
	})
}
