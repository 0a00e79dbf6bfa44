package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

const (
	fakeKey    = "sk-fake-SECRET-9f8e7d6c5b4a"
	secretText = "STATE-TEXT-7731 rm -rf /srv/prod"
)

// fakeProvider is a loopback provider speaking the OpenAI chat wire and
// the three native decision wires. It counts every request.
type fakeProvider struct {
	srv      *httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	bodies   []map[string]any
	paths    []string
	// respond answers one request (path, decoded body).
	respond func(w http.ResponseWriter, path string, body map[string]any)
}

func newFakeProvider(t *testing.T) *fakeProvider {
	t.Helper()
	f := &fakeProvider{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.paths = append(f.paths, r.URL.Path)
		respond := f.respond
		f.mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+fakeKey {
			w.WriteHeader(401)
			return
		}
		respond(w, r.URL.Path, body)
	}))
	t.Cleanup(f.srv.Close)
	f.respond = f.answerAll(0.95)
	return f
}

func (f *fakeProvider) set(respond func(w http.ResponseWriter, path string, body map[string]any)) {
	f.mu.Lock()
	f.respond = respond
	f.mu.Unlock()
}

func (f *fakeProvider) lastBody() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.bodies) == 0 {
		return nil
	}
	return f.bodies[len(f.bodies)-1]
}

// chatReply writes an OpenAI chat completion whose content is content.
func chatReply(w http.ResponseWriter, content string, finish string) {
	resp := map[string]any{"id": "c", "model": "judge-served-2026", "choices": []any{map[string]any{
		"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": 300, "completion_tokens": 40}}
	_ = json.NewEncoder(w).Encode(resp)
}

// answerAll answers a structured request by walking the schema's
// questions: true / the first label at confidence c.
func (f *fakeProvider) answerAll(c float64) func(w http.ResponseWriter, path string, body map[string]any) {
	return func(w http.ResponseWriter, path string, body map[string]any) {
		if !strings.HasSuffix(path, "/chat/completions") {
			w.WriteHeader(404)
			return
		}
		chatReply(w, structuredAnswer(body, c, nil), "stop")
	}
}

// structuredAnswer builds {"answers": ...} for the questions of a chat
// request's schema (carried in response_format or the system prompt).
func structuredAnswer(body map[string]any, c float64, override map[string]any) string {
	schema := schemaOf(body)
	props := schema["properties"].(map[string]any)["answers"].(map[string]any)["properties"].(map[string]any)
	answers := map[string]any{}
	for id, p := range props {
		ap := p.(map[string]any)["properties"].(map[string]any)
		a := map[string]any{"confidence": c, "evidence": "cited"}
		switch {
		case ap["verdict"] != nil:
			a["verdict"] = true
		case ap["choice"] != nil:
			a["choice"] = ap["choice"].(map[string]any)["enum"].([]any)[0]
		case ap["level"] != nil:
			a["level"] = ap["level"].(map[string]any)["enum"].([]any)[0]
		}
		if o, ok := override[id]; ok {
			a = o.(map[string]any)
		}
		answers[id] = a
	}
	b, _ := json.Marshal(map[string]any{"answers": answers})
	return string(b)
}

func schemaOf(body map[string]any) map[string]any {
	if rf, ok := body["response_format"].(map[string]any); ok {
		return rf["json_schema"].(map[string]any)["schema"].(map[string]any)
	}
	msgs := body["messages"].([]any)
	sys := msgs[0].(map[string]any)["content"].(string)
	i := strings.Index(sys, llm.PromptSchemaInstruction)
	var s map[string]any
	_ = json.Unmarshal([]byte(sys[i+len(llm.PromptSchemaInstruction)+1:]), &s)
	return s
}

// testCatalog has a structured HTTP route (local/judge), the three
// native routes on the fake, and the built-in mock routes.
func testCatalog(t *testing.T, base string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Default().Parse("harn.toml", []byte(fmt.Sprintf(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "native_schema"
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192
max_questions = 4
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0
timeout_ms = 300

[[routes]]
provider = "local"
model = "prompt"
operations = ["text_generation"]
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0

[[routes]]
provider = "local"
model = "unpriced"
operations = ["text_generation", "decision"]
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192

[[routes]]
provider = "local"
model = "nodecide"
operations = ["text_generation"]
structured_transport = "unsupported"
base_url = "%[1]s/v1"
context_window = 8192
input_price_per_mtok = 1.0

[[routes]]
provider = "local"
model = "nowindow"
operations = ["text_generation", "decision"]
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
input_price_per_mtok = 1.0

[[routes]]
provider = "vercel"
model = "typesafe/jev-1.13"
operations = ["decision"]
protocol = "vercel_evaluate"
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
wire_model = "typesafe-ai/jev"
state_window_tokens = 32000
request_window_tokens = 64000
input_price_per_mtok = 0.042
output_price_per_mtok = 0.0

[[routes]]
provider = "openrouter"
model = "typesafe/jev-1.13"
operations = ["decision"]
protocol = "openrouter_decisions"
base_url = "%[1]s/api/v1"
api_key_env = "FAKE_KEY"
state_window_tokens = 32000
request_window_tokens = 64000
input_price_per_mtok = 0.042
output_price_per_mtok = 0.0

[[routes]]
provider = "typesafe"
model = "jev-1.13"
operations = ["decision"]
protocol = "typesafe_system_one"
base_url = "%[1]s/v1"
api_key_env = "FAKE_KEY"
state_window_tokens = 32000
request_window_tokens = 64000
input_price_per_mtok = 0.042
output_price_per_mtok = 0.0
`, base)))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func getenv(name string) (string, bool) {
	if name == "FAKE_KEY" {
		return fakeKey, true
	}
	return "", false
}

func newEvaluator(t *testing.T, f *fakeProvider, ceiling *float64) *Evaluator {
	t.Helper()
	return New(Options{Catalog: testCatalog(t, f.srv.URL), Ledger: NewLedger(ceiling), LLM: llm.Options{Getenv: getenv}})
}

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

const triageQuestions = `{
  "disposition": {"kind": "choice", "instructions": "Keep, reword, or drop this window?", "criteria": {
    "keep": "Still load-bearing for the current task",
    "reword": "Useful but far longer than it needs to be",
    "drop": "Superseded by later work"}},
  "risk": {"kind": "score", "instructions": "How much blast radius?", "levels": ["none", "low", "medium", "high"]},
  "safe": {"kind": "boolean", "instructions": "Is this safe to run without asking?"}
}`

func policy(t *testing.T, provider, model string, extra string) any {
	t.Helper()
	backend := BackendStructured
	if provider == "vercel" || provider == "openrouter" || provider == "typesafe" {
		backend = BackendNative
	}
	return decode(t, fmt.Sprintf(`{"backend": %q, "provider": %q, "model": %q, "threshold": 0.5%s}`, backend, provider, model, extra))
}

func request(t *testing.T, provider, model, extra string) Request {
	return Request{SiteID: "compaction.triage.v1", State: decode(t, `{"messages": ["`+secretText+`", "ls"]}`),
		Questions: decode(t, triageQuestions), Policy: policy(t, provider, model, extra)}
}

func mustEvaluate(t *testing.T, e *Evaluator, req Request) *Result {
	t.Helper()
	res, err := e.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
