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

func TestReplayMetadataRecords(t *testing.T) {
	runMetadataCases(t, "", []metadataCase{
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
