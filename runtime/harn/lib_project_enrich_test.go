package harn

import "testing"

// TestProjectEnrichDeepScan covers fingerprints, enrichment (cache,
// budget, schema failure, the retry nudge) and incremental deep scans.
func TestProjectEnrichDeepScan(t *testing.T) {
	files := map[string]string{
		"p/Cargo.toml":               "[package]\nname = \"demo\"\n[dependencies]\naxum = \"1\"\n",
		"p/Cargo.lock":               "# lock\n",
		"p/src/lib.rs":               "pub fn f() {}\n",
		"p/.github/workflows/ci.yml": "on: push\n",
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a fingerprint reads manifests, lockfiles and CI", `
let fp = project_fingerprint("p")
println([fp.primary_language, fp.frameworks, fp.package_manager, fp.test_runner, fp.ci, fp.lockfile_paths])
println(project_fingerprint("p/src/lib.rs").primary_language)
`, "[rust, [axum], cargo, cargo-test, [github-actions], [Cargo.lock]]\nrust\n"},
		{"enrichment asks once, then answers from its cache", `
import "std/project"
llm_mock({text: "{\"kind\":\"lib\"}"})
let opts = {prompt: "{{package_name}}:{{ for f in files }}{{f.path}},{{ end }}", schema: {type: "object", required: ["kind"]}, provider: "mock", include_operator_meta: false}
let a = project_enrich("p", opts)
let b = project_enrich("p", opts)
println([a.kind, a._provenance.cached, b._provenance.cached, len(llm_mock_calls())])
println(llm_mock_calls()[0].messages[0].content)
`, "[lib, false, true, 1]\ndemo:.github/workflows/ci.yml,Cargo.toml,Cargo.lock,src/lib.rs,\n"},
		{"over budget no call is made; a schema failure is an envelope after a nudge", `
import "std/project"
let over = project_enrich("p", {prompt: "x", schema: {}, budget_tokens: 0, provider: "mock"})
println([over.budget_exceeded, over.package_name, len(llm_mock_calls())])
llm_mock({text: "{}"})
llm_mock({text: "{}"})
let bad = project_enrich("p", {prompt: "y", schema: {type: "object", required: ["kind"]}, provider: "mock", cache_key: "k2"})
println(contains(bad.validation_error, "schema"))
let calls = llm_mock_calls()
println(calls[1].messages[1].content)
`, "[true, demo, 0]\ntrue\nYour previous response did not match the required JSON schema.\nValidation errors: at root: missing required key 'kind'.\nRequired keys: kind.\nRespond again with ONLY valid JSON conforming to the schema. No prose, no markdown fences.\n"},
		{"a deep scan reuses unchanged folders and rescans changed ones", `
import "std/project"
let a = project_deep_scan("p", {namespace: "ns", tiers: ["ambient"]})
println(keys(a))
println(project_deep_scan_status("ns", "p").cache_hits)
project_deep_scan("p", {namespace: "ns", tiers: ["ambient"]})
println(project_deep_scan_status("ns", "p").cache_hits)
write_file("p/src/more.rs", "")
project_deep_scan("p", {namespace: "ns", tiers: ["ambient"]})
println(project_deep_scan_status("ns", "p").cache_hits)
`, "[., src]\n0\n2\n1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{files: files})
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}
