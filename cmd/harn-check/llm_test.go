package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const (
	cliFakeKey  = "sk-cli-FAKE-KEY-5566"
	cliSecret   = "CLI-STATE-SECRET-4242"
	cliQuestion = `{"safe":{"kind":"boolean","instructions":"Is this read only?"},"risk":{"kind":"score","instructions":"How much blast radius?","levels":["none","low","medium","high"]}}`
)

// runCLIWithKey runs harn-check with FAKE_KEY set.
func runCLIWithKey(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cacheDir: t.TempDir(),
		getenv: func(k string) string {
			if k == "FAKE_KEY" {
				return cliFakeKey
			}
			return ""
		}}
	code := run(e, args)
	return code, out.String(), errb.String()
}

// chatFake answers OpenAI chat completions with every question at
// confidence 0.9 (true / the first level), counting requests.
func chatFake(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.Header.Get("Authorization") != "Bearer "+cliFakeKey {
			w.WriteHeader(401)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			ResponseFormat struct {
				JSONSchema struct {
					Schema struct {
						Properties struct {
							Answers struct {
								Properties map[string]struct {
									Properties map[string]struct {
										Enum []string `json:"enum"`
									} `json:"properties"`
								} `json:"properties"`
							} `json:"answers"`
						} `json:"properties"`
					} `json:"schema"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		_ = json.Unmarshal(raw, &body)
		answers := map[string]any{}
		for id, q := range body.ResponseFormat.JSONSchema.Schema.Properties.Answers.Properties {
			a := map[string]any{"confidence": 0.9, "evidence": "cited"}
			if lv, ok := q.Properties["level"]; ok {
				a["level"] = lv.Enum[0]
			} else if ch, ok := q.Properties["choice"]; ok {
				a["choice"] = ch.Enum[0]
			} else {
				a["verdict"] = true
			}
			answers[id] = a
		}
		content, _ := json.Marshal(map[string]any{"answers": answers})
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "judge-2026", "choices": []any{map[string]any{
			"message": map[string]any{"content": string(content)}, "finish_reason": "stop"}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLLMEvaluateForms(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	cat := writeFile(t, dir, "harn.toml", fmt.Sprintf(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "native_schema"
base_url = "%s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0
`, srv.URL))
	request := func(q string) string {
		return fmt.Sprintf(`{"site_id": "audit.safe.v1", "state": {"command": %q}, "questions": %s,
		  "policy": {"backend": "structured_llm", "provider": "local", "model": "judge", "threshold": 0.5, "run_cost_limit": 0.01}}`, cliSecret, q)
	}
	reqFile := writeFile(t, dir, "request.json", request(cliQuestion))
	var transcript strings.Builder
	call := func(args ...string) (int, string) {
		code, out, errs := runCLIWithKey(t, args...)
		transcript.WriteString(out + errs)
		return code, out
	}

	// --request form.
	code, out := call("llm", "evaluate", "--catalog", cat, "--request", reqFile, "--json")
	var result struct {
		Outcome map[string]any  `json:"outcome"`
		Receipt json.RawMessage `json:"receipt"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &result) != nil || result.Outcome["kind"] != "answered" {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if requests.Load() != 1 {
		t.Errorf("requests %d", requests.Load())
	}
	receiptFile := writeFile(t, dir, "receipt.json", string(result.Receipt))
	resultFile := writeFile(t, dir, "result.json", out)

	// --verify-receipt: the receipt alone and the whole result verify.
	for _, rf := range []string{receiptFile, resultFile} {
		code, out = call("llm", "evaluate", "--catalog", cat, "--request", reqFile, "--verify-receipt", rf, "--json")
		if code != 0 || !strings.Contains(out, `"verified": true`) || !strings.Contains(out, `"schema": "harn.evaluation_verification.v1"`) {
			t.Errorf("verify %s: exit %d\n%s", rf, code, out)
		}
	}
	// A changed request is refused with exit 1 and the right code.
	changed := writeFile(t, dir, "changed.json", strings.Replace(request(cliQuestion), "blast radius", "damage", 1))
	code, out = call("llm", "evaluate", "--catalog", cat, "--request", changed, "--verify-receipt", receiptFile, "--json")
	if code != 1 || !strings.Contains(out, `"code": "questions_mismatch"`) || !strings.Contains(out, `"verified": false`) {
		t.Errorf("changed questions: exit %d\n%s", code, out)
	}
	code, out = call("llm", "evaluate", "--catalog", cat, "--request", changed, "--verify-receipt", receiptFile)
	if code != 1 || !strings.Contains(out, "questions_mismatch (identity.question_set_digest)") {
		t.Errorf("text verification: exit %d\n%s", code, out)
	}
	// Unreadable input exits 2.
	bad := writeFile(t, dir, "bad.json", `{"site_id": "x"`)
	if code, _ := call("llm", "evaluate", "--catalog", cat, "--request", reqFile, "--verify-receipt", bad); code != 2 {
		t.Errorf("unreadable receipt: exit %d", code)
	}
	if code, _ := call("llm", "evaluate", "--catalog", cat, "--request", bad, "--json"); code != 2 {
		t.Errorf("unreadable request: exit %d", code)
	}
	extra := writeFile(t, dir, "extra.json", strings.Replace(request(cliQuestion), `"site_id"`, `"labels": [], "site_id"`, 1))
	if code, _ := call("llm", "evaluate", "--catalog", cat, "--request", extra, "--json"); code != 2 {
		t.Errorf("request with labels: exit %d", code)
	}
	malformed := writeFile(t, dir, "malformed.json", strings.Replace(request(cliQuestion), `"threshold": 0.5`, `"threshold": 2`, 1))
	if code, _ := call("llm", "evaluate", "--catalog", cat, "--request", malformed, "--json"); code != 2 {
		t.Errorf("malformed policy: exit %d", code)
	}
	before := requests.Load()

	// --model form with the default policy; refusals exit 0.
	state := writeFile(t, dir, "state.txt", cliSecret)
	qfile := writeFile(t, dir, "q.json", cliQuestion)
	code, out = call("llm", "evaluate", "--catalog", cat, "--model", "mock/fixture", "--state-file", state, "--questions", qfile, "--json")
	if code != 0 || !strings.Contains(out, `"kind": "answered"`) || !strings.Contains(out, `"canonical_input_type": "string"`) {
		t.Errorf("--model mock/fixture: exit %d\n%s", code, out)
	}
	code, out = call("llm", "evaluate", "--catalog", cat, "--model", "nobody/x", "--state-file", state, "--questions", qfile, "--json")
	if code != 0 || !strings.Contains(out, `"reason": "model_unconfigured"`) || !strings.Contains(out, `"physical_attempts": 0`) {
		t.Errorf("unknown route: exit %d\n%s", code, out)
	}
	// The default policy is native on a native route; its $0.01 ceilings
	// admit the call, which then stops before the network because the
	// route's credential variable is not set.
	code, out = call("llm", "evaluate", "--model", "openrouter/typesafe/jev-1.13", "--state-file", state, "--questions", qfile, "--json")
	if code != 0 || !strings.Contains(out, `"backend_kind": "native_decision"`) || !strings.Contains(out, `"reason": "authority_denied"`) {
		t.Errorf("native default policy: exit %d\n%s", code, out)
	}
	code, out = call("llm", "evaluate", "--catalog", cat, "--model", "mock/fixture", "--state-file", state, "--questions", qfile)
	if code != 0 || !strings.HasPrefix(out, "answered\n") || !strings.Contains(out, "source live, 1 physical attempt(s)") {
		t.Errorf("text output: exit %d\n%s", code, out)
	}
	if code, _ := call("llm", "evaluate", "--model", "mock", "--state-file", state, "--questions", qfile); code != 2 {
		t.Errorf("bad route name: exit %d", code)
	}
	if code, _ := call("llm", "evaluate", "--model", "mock/fixture", "--state-file", state); code != 2 {
		t.Errorf("missing questions: exit %d", code)
	}
	if code, _ := call("llm", "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
	if requests.Load() != before {
		t.Errorf("mock and refused evaluations reached the HTTP provider")
	}
	// Nothing printed holds the credential; no receipt holds the state.
	if s := transcript.String(); strings.Contains(s, cliFakeKey) {
		t.Errorf("output holds the credential")
	}
	for _, f := range []string{receiptFile} {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, []byte(cliSecret)) || bytes.Contains(data, []byte(cliFakeKey)) {
			t.Errorf("%s holds the state or the credential", f)
		}
	}
}

func TestLLMEvaluateTape(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	cat := writeFile(t, dir, "harn.toml", fmt.Sprintf(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "native_schema"
base_url = "%s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0
`, srv.URL))
	req := writeFile(t, dir, "request.json", `{"site_id": "s.v1", "state": "ls", "questions": `+cliQuestion+`,
	  "policy": {"backend": "structured_llm", "provider": "local", "model": "judge", "threshold": 0.5}}`)
	tape := filepath.Join(dir, "probe.tape")
	code, recorded, errs := runCLIWithKey(t, "llm", "evaluate", "--catalog", cat, "--request", req, "--tape", tape, "--json")
	if code != 0 || requests.Load() != 1 {
		t.Fatalf("record: exit %d, %d requests, %s", code, requests.Load(), errs)
	}
	data, err := os.ReadFile(tape)
	if err != nil || bytes.Contains(data, []byte(cliFakeKey)) {
		t.Fatalf("tape: %v", err)
	}
	// Replay: no credential needed, no request made, the same outcome.
	code, replayed, errs := runCLI(t, "llm", "evaluate", "--catalog", cat, "--request", req, "--tape", tape, "--json")
	if code != 0 || requests.Load() != 1 {
		t.Fatalf("replay: exit %d, %d requests, %s", code, requests.Load(), errs)
	}
	outcome := func(s string) string {
		var r struct {
			Outcome json.RawMessage `json:"outcome"`
		}
		_ = json.Unmarshal([]byte(s), &r)
		return string(r.Outcome)
	}
	if outcome(recorded) == "" || outcome(recorded) != outcome(replayed) || !strings.Contains(replayed, `"source": "tape"`) {
		t.Errorf("replayed outcome differs:\n%s\n%s", outcome(recorded), outcome(replayed))
	}
	// A changed question set replays as replay_mismatch and fails.
	changed := writeFile(t, dir, "changed.json", strings.Replace(string(mustRead(t, req)), "blast radius", "damage", 1))
	code, out, errs := runCLI(t, "llm", "evaluate", "--catalog", cat, "--request", changed, "--tape", tape, "--json")
	if code != 1 || !strings.Contains(out, `"kind": "replay_mismatch"`) || !strings.Contains(errs, "replay mismatch") || requests.Load() != 1 {
		t.Errorf("changed questions: exit %d\n%s\n%s", code, out, errs)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
