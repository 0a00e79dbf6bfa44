package ai

import "testing"

func TestToolContracts(t *testing.T) {
	runMetadataCases(t, `
ran := false
lookup := llm.tool("lookup", func(query) { ran = true; return {answer: "docs:" .. query}, nil }, {
    params: ["query"]
    description: "Lookup local documents."
    capabilities: ["docs.read", "replay.local"]
    result: {answer: "string"}
    error: {kind: "validation", message: "string"}
    replay_key: "lookup:{query}"
})
bare := llm.tool("bare", func() { return 1, nil })
helper := agent { name: "helper", model: "m", params: ["topic"], output: {summary: "s"} }
`, []metadataCase{
		{name: "info, schema and validation", src: `
info := llm.tool_info(lookup)
assert(info.kind == "tool_contract" && info.name == "lookup" && info.tool_name == "lookup" && info.type == "function")
assert(info.description == "Lookup local documents." && info.params[1] == "query")
assert(info.requires[2] == "replay.local" && info.capabilities[1] == "docs.read" && info.capability_ids[1] == "docs.read")
assert(info.input_schema.type == "object" && info.input_schema.properties.query.type == "string" && info.input_schema.required[1] == "query")
assert(info.output_schema.answer == "string" && info.result.answer == "string" && info.error.kind == "validation")
assert(info.replay_key == "lookup:{query}" && info.effect == "read_only" && info.approval_policy == "not_required_for_fixture")
assert(info.provider_wire_format == "none" && info.live_network == false && info.secret_parameters_allowed == false)
inv := llm.toolInfo([lookup, bare, 42])
assert(inv.kind == "tool_inventory" && #inv == 2 && inv.capabilities[1] == "docs.read" && inv[2].schema == nil)
sch := llm.tool_schema([lookup])
assert(#sch == 1 && sch[1].kind == "tool_schema" && sch.kind == nil)
wrapped := llm.tool_info(llm.agent_as_tool(helper))
assert(wrapped.type == "agent" && wrapped.input_schema.properties.topic.type == "string" && wrapped.output.summary == "s")
listed := llm.tool_info([helper])
assert(listed[1].type == "agent" && listed[1].name == "helper")
ok, err := llm.validate_tools([lookup])
assert(ok == true && err == nil)
_, e := llm.validateTools([lookup, bare])
assert(e.kind == "validation" && e.field == "schema" && e.tool == "bare" && e.index == 2)
assert(e.message == "tool contract missing schema: bare")
_, ec := llm.validate_tools([llm.tool("nocaps", func(a) {}, {params: ["a"]})])
assert(ec.field == "capabilities")
_, e2 := llm.validate_tools([lookup, 3])
assert(e2.message == "tool inventory contains non-tool entry" && e2.index == 2)
_, e3 := llm.validate_tools([llm.tool("x", func() {}, {params: ["a"], requires: ["c"], result: {}, error: {}, replay_key: "k", effect: "mutating"})])
assert(e3.field == "effect" && e3.message == "tool contract effect must be read_only or effectful: x")
assert(ran == false)
`},
		{name: "registry, validation and invocation trace", src: `
effect := llm.tool("publish", func(id) { return id, nil }, {params: ["id"], requires: ["publish.web"], result: {}, effect: "effectful"})
reg := llm.tool_registry([lookup, effect, lookup], {registry_id: "research-tools"})
assert(reg.kind == "tool_registry" && reg.version == "tool_registry.v1" && reg.registry_id == "research-tools")
assert(reg.tool_count == 3 && #reg.capabilities == 3 && reg.effectful_count == 1 && reg.approval_required_count == 0)
assert(reg.mode == "fixture_replay" && reg.provider_free == true && reg.summary.capability_count == 3)
assert(reg.redaction.policy == "tool_registry_metadata_only" && reg.descriptors == reg.tools)
gate := llm.validate_tool_registry(reg)
assert(gate.ok == false && gate.status == "failed" && gate.kind == "tool_registry_validation")
kinds := {}
for _, f := range gate.findings { kinds[f.kind] = f.field }
assert(kinds.duplicate_tool == "tool_name" && kinds.approval_policy == "approval_policy")
clean := llm.validateToolRegistry(llm.tool_registry([lookup]))
assert(clean.ok == true && clean.finding_count == 0)
empty := llm.validate_tool_registry({provider_free: false, live_network: true})
assert(empty.finding_count == 3)
// a tool's own credential boundary is kept and flagged like the registry's
keyed := llm.tool("keyed", func(q) { return q, nil }, {params: ["q"], capabilities: ["vendor.read"], result: {}, provider_credentials_required: true})
kinfo := llm.tool_info(keyed)
assert(kinfo.provider_credentials_required == true && llm.tool_info(lookup).provider_credentials_required == false)
kgate := llm.validate_tool_registry(llm.tool_registry([keyed]))
assert(kgate.ok == false && kgate.finding_count == 1 && kgate.findings[1].kind == "provider_credentials_required")
assert(kgate.findings[1].field == "provider_credentials_required" && kgate.findings[1].message == "tool descriptor must not require provider credentials")
tagged := tool { name: "tagged", fn: func(q) { return 1, nil }, params: ["q"], requires: ["x.read"], result: {}, provider_credentials_required: true }
tgate := llm.validate_tool_registry(llm.tool_registry([tagged]))
assert(tgate.finding_count == 1 && tgate.findings[1].kind == "provider_credentials_required")
tr := llm.tool_invocation_trace({tool_name: "lookup", replay_key: "lookup:x", capability: "docs.read"}, {answer: "raw"})
assert(tr.kind == "tool_invocation_trace" && tr.tool_name == "lookup" && #tr.events == 5)
assert(tr.events[1].event == "registered" && tr.events[5].event == "result_recorded" && tr.events[5].sequence == 5)
assert(tr.capability_ids[1] == "docs.read" && tr.result.ok == true && tr.result.status == "ok")
assert(tr.result.metadata.result_type == "table" && tr.result.metadata.raw_result_stored == false && tr.result.answer == nil)
assert(tr.approval.required == false && tr.approval.decision == "allow_fixture" && tr.provenance.fixture_key == "lookup:x")
denied := llm.toolInvocationTrace({tool: "publish", approval_required: true}, nil, {approval_decision: "deny"})
assert(denied.result.status == "denied" && denied.result.ok == false && denied.approval.decision == "deny")
assert(llm.tool_invocation_trace({name: "t"}, {kind: "tool", message: "m"}).result.status == "error")
`},
		{name: "tool_info arguments", src: `llm.tool_info(3)`, wantErr: "bad argument #1 to 'llm.tool_info' (tool or tools table expected)"},
	})
}
