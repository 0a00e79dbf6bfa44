package ai

import "testing"

func TestFixtureIndexAndPackageContract(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "fixture index", src: `
idx := llm.fixture_index({id: "pkg-fixtures", fixtures: [
    {fixture_key: "turn-1", path: "fixtures/turn1.records.json", schema_path: "schemas/turn.json", capability: "generic.ai.turn"}
    {id: "tool-1", metadata: {owner: "team"}}
    "not a table"
]}, {replay_ready: true})
assert(idx.kind == "fixture_index" && idx.version == "fixture_index.v1" && idx.fixture_id == "pkg-fixtures" && idx.id == "pkg-fixtures")
assert(idx.provider_free == true && idx.live_network == false && idx.mode == "fixture_replay" && idx.strategy == "strict_ordered")
assert(idx.fixture_count == 2 && idx.fixtures[1].id == "turn-1" && idx.fixtures[1].schema == "schemas/turn.json")
assert(idx.fixtures[2].fixture_key == "tool-1" && idx.fixtures[2].metadata.owner == "team" && idx.fixtures[2].metadata.replay_ready == true)
assert(idx.matching.consume_on_match == true && idx.matching.identity_fields[4] == "request_hash")
assert(idx.matching.exhausted_finding_kind == "generic.ai.replay.exhausted" && idx.summary.fixture_count == 2)
assert(#idx.deterministic_summary_order == 6)
ok := llm.validate_fixture_index(idx, {require_replay_ready: true})
assert(ok.ok == true && ok.status == "ok" && ok.result_status == "ok" && ok.fixture_count == 2 && ok.finding_count == 0)
bad := llm.validateFixtureIndex({provider_free: true, live_network: true, fixtures: [
    {id: "a", path: "/etc/passwd"}, {path: "../up.json"}, {id: "c", schema: ["ok.json", "https://x.test/s.json", 3]},
    {id: "d", metadata: {replay_ready: false}}
]}, {require_path: true})
assert(bad.ok == false && bad.status == "failed" && bad.result_status == "blocked")
kinds := {}
for _, f := range bad.findings { kinds[f.kind .. "@" .. (f.fixture || "")] = f.message }
assert(kinds["live_network@"] != nil && kinds["path@a"] != nil && kinds["fixture_key@fixture:2"] != nil)
assert(kinds["path@fixture:2"] == "fixture reference must be relative metadata, not an absolute path, parent traversal, or URL")
assert(kinds["schema@c"] != nil && kinds["replay_ready@d"] == "fixture metadata replay_ready must be true")
assert(kinds["provider_free@a"] == "fixture must be provider-free" && kinds["path@d"] == "fixture must include a path")
`},
		{name: "package contract", src: `
c := llm.provider_free_package_contract({
    package_id: "analytics-report"
    entrypoints: {main: "analytics_report.leia", fixture_index: "fixtures/provider_free_fixture_index.json"}
    schemas: ["package.schema.json"]
    fixtures: {index: "fixtures/provider_free_fixture_index.json"}
    capabilities: ["generic.ai.turn", "docs.read"]
})
assert(c.kind == "provider_free_package_contract" && c.version == "provider_free_package_contract.v1")
assert(c.package_id == "analytics-report" && c.id == "analytics-report" && c.package_name == "analytics-report")
assert(c.live_network == false && c.live_network_default == false && c.credentials_required == false && c.offline_verifiable == true)
assert(c.default_policy.mode == "fixture_replay" && c.default_policy.clean_skip_without_dependency == true)
assert(#c.credentials.required == 0 && c.credentials.provider_credentials_required == false)
assert(c.entrypoint_count == 2 && c.schema_count == 1 && c.fixture_count == 1 && c.capability_count == 2)
assert(c.summary.package_id == "analytics-report" && c.summary.capability_count == 2)
v := llm.validate_package_contract(c, {require_entrypoints: true, require_fixture_index: true})
assert(v.ok == true && v.kind == "package_contract_validation" && v.package_id == "analytics-report" && v.finding_count == 0)
b := llm.validatePackageContract(llm.providerFreePackageContract({id: "p", live_model: true, credentials: {required: ["API_KEY"]}, entrypoints: {main: "/abs/x.leia"}}), {require_fixture_index: true})
kinds := {}
for _, f := range b.findings { kinds[f.kind] = f.message }
assert(b.ok == false && b.result_status == "blocked")
assert(kinds.live_model_default == "package contract must default live model calls off")
assert(kinds["credentials.required"] == "provider-free package contract must not require credential refs")
assert(kinds["entrypoints.main"] != nil && kinds.fixture_index == "package contract must reference a fixture index")
nopolicy := llm.validate_package_contract({provider_free: true})
assert(nopolicy.findings[1].kind == "default_policy")
`},
	})
}

func TestReplayRecordsAndFixtures(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
		{name: "records, fixtures and matching", src: `
req := {model: "m", messages: [llm.user("hi")]}
r, err := llm.replay_record({record_id: "rec-1", request: req, response: {status: "final_answer", text: "hello"}})
assert(err == nil && r.mode == "fixture_replay" && r.operation == "llm.turn" && r.capability == "generic.ai.turn")
assert(r.replay_key == "rec-1" && r.request_hash:sub(1, 7) == "blake3:" && #r.response_hash == 71 && r.provider_free == true)
assert(r.replay.response.text == "hello" && r.replay.request_hash == r.request_hash)
r2, _ := llm.replayRecord({request: req})
assert(r2.request_hash == r.request_hash && r2.replay_key == "record:1")
fx, ferr := llm.replay_fixture([{record_id: "rec-1", replay_key: "k1", request: req, response: {text: "hello"}}, {replay_key: "k2", request: {model: "m", messages: [llm.user("bye")]}}], {fixture_id: "fx-1"})
assert(ferr == nil && fx.fixture_id == "fx-1" && fx.loaded_records == 2 && fx.strategy == "strict_ordered")
opts, rerr := fx.replay(req, "k1")
assert(rerr == nil && opts.response.text == "hello" && opts.replay_key == "k1")
_, miss := fx.replay({model: "m", messages: [llm.user("other")]}, "k2")
assert(miss.kind == "validation" && miss.status == "mismatch" && miss.finding_kind == "generic.ai.replay.mismatch")
assert(string.find(miss.message, "replay identity mismatch on request_hash", 1, true) == 1)
s := fx.summary()
assert(s.requests == 2 && s.matched == 1 && s.mismatches == 1 && s.unconsumed == 1 && s.matched_record_ids[1] == "rec-1")
assert(s.finding_kinds[1] == "generic.ai.replay.mismatch" && s.finding_kinds[2] == "generic.ai.replay.unconsumed_record")
idx, ierr := llm.replay_index([{operation: "op", capability: "c", replay_key: "a", request_hash: "h"}], {identity_fields: ["replay_key"]})
assert(ierr == nil && idx.loaded_records == 1 && #idx.identity_fields == 1)
m1 := idx.match({replay_key: "a"})
assert(m1.ok == true && m1.status == "matched" && m1.record.request_hash == "h")
m2 := idx:match({replay_key: "a"})
assert(m2.ok == false && m2.status == "exhausted" && m2.finding_kind == "generic.ai.replay.exhausted")
ev := llm.replay_trace_event(m1, {trace_id: "replay", workflow_run_id: "wf"})
assert(ev.event_type == "replay_record_matched" && ev.status == "matched" && ev.replay.replay_key == "a" && ev.replay.request_hash == "h")
assert(ev.correlation.turn_id == "a" && ev.correlation.replay_session_id == "fixture" && ev.payload.summary.matched == 1)
assert(ev.payload.record == nil && ev.payload.request == nil)
assert(llm.replayTraceEvent(m2).event_type == "replay_record_exhausted")
mm := llm.replay_trace_event(fx.match({replay_key: "zz"}))
assert(mm.event_type == "replay_record_mismatch" && mm.payload.message == "replay identity mismatch on operation")
_, bad := llm.replay_index([{}], {strategy: "any"})
assert(bad.message == "llm.replay_index only supports strict_ordered strategy")
_, badrec := llm.replay_fixture([1])
assert(badrec.message == "llm.replay_fixture record #1 must be a table")
`},
		{name: "HTTP and artifact records", src: `
h, err := llm.replay_http_record({
    replay_key: "prices:2026-11-30"
    request: {method: "GET", url: "https://api.example.test/v1/prices?symbol=ACME&api_key=sk-123", headers: {Authorization: "Bearer sk-123", Accept: "application/json"}}
    response: {status: 200, content_type: "application/json", body: "{\"price\": 10}", headers: {["Set-Cookie"]: "s=1"}}
    pagination: {page: 1, next: "2"}
    rate_limit: {remaining: 99}
})
assert(err == nil && h.kind == "replay_http_record" && h.version == "replay_http_record.v1" && h.operation == "http.request")
assert(h.provider_free == true && h.live_network == false && h.offline == true && h.replay_key == "prices:2026-11-30")
assert(h.request.method == "GET" && h.request.headers.Authorization == "<redacted>" && h.request.headers.Accept == "application/json")
assert(string.find(h.request.url, "sk-123", 1, true) == nil && string.find(h.request.url, "symbol=ACME", 1, true) != nil)
assert(h.response.status == 200 && h.response.body == nil && h.response.body_present == true && h.response.bytes == 13)
assert(#h.response.body_hash == 71 && h.response.headers["Set-Cookie"] == "<redacted>" && h.redaction.headers_redacted == 2)
assert(h.pagination.page == 1 && h.rate_limit.remaining == 99 && h.summary.status == 200)
assert(llm.replay_api_record({}).kind == "replay_http_record" && llm.replayHttpRecord({}).request.method == "GET")
a, aerr := llm.replay_artifact_record({artifact: {id: "10k", uri: "https://u:p@files.test/10k.pdf", bytes: 1200, sha256: "abc", content: "raw pdf text"}})
assert(aerr == nil && a.kind == "replay_artifact_record" && a.artifact.id == "10k" && a.artifact.content == nil)
assert(a.artifact.content_present == true && a.artifact.sha256 == "abc" && string.find(a.artifact.uri, "u:p", 1, true) == nil)
assert(a.operation == "artifact.fetch" && a.redaction.raw_content_stored == false && llm.replayArtifactRecord({}).artifact.raw_content_stored == false)
`},
	})
}
