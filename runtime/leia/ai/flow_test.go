package ai_test

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
)

// fakeOpenAI is an OpenAI-compatible chat completions server on the
// loopback interface: it answers every request with its text and keeps
// the decoded request bodies.
type fakeOpenAI struct {
	mu     sync.Mutex
	bodies []map[string]any
	srv    *httptest.Server
}

func newFakeOpenAI(t *testing.T, answer string) *fakeOpenAI {
	f := &fakeOpenAI{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": answer}, "finish_reason": "stop"}}})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

// runLive runs src in live mode: providers come from the program's model
// aliases through the live factory, the host grants the loopback
// interface only.
func runLive(t *testing.T, src string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	var out strings.Builder
	h, err := host.New(host.Config{Root: dir, Stdout: &out, Grants: host.Grants{NetHosts: []string{"127.0.0.1"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	in := leia.New(leia.Options{Stdout: &out, Host: h, Limits: execution.Limits{Steps: 10_000_000}})
	ai.Install(in, ai.Config{Factory: ai.LiveFactory(h), Dir: dir, Host: h, Source: "live"})
	chunk, err := in.Compile(filepath.Join(dir, "main.leia"), []byte(src))
	if err != nil {
		return out.String(), err
	}
	_, err = in.Run(context.Background(), chunk)
	return out.String(), err
}

// Inside a flow, a turn that names no model uses the `default` alias and
// so the provider it configures: on a real (HTTP) provider, not only on
// the mock or a replay, whose provider is fixed.
func TestFlowTurnUsesDefaultAliasOnLiveProvider(t *testing.T) {
	f := newFakeOpenAI(t, "from the loopback provider")
	t.Setenv("FLOW_TEST_KEY", "sk-flow-test")
	for _, tc := range []struct{ name, config, turn string }{
		{"config names the alias", `{model: "fast", user: q}`, `llm.turn({user: q})`},
		{"config names no model", `{user: q}`, `llm.turn({user: q})`},
		{"turn names the alias", `{model: "fast", user: q}`, `llm.turn({model: "fast", user: q})`},
		{"turn { } form", `{model: "fast", user: q}`, `turn { user: q }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(f.requests())
			out, err := runLive(t, `
model {
    default: "fast"
    fast: {protocol: "openai_compatible", base_url: "`+f.srv.URL+`", api_key_env: "FLOW_TEST_KEY", provider_model: "wire-fast"}
}
answer := llm.agent("answer", func(q) { return `+tc.config+`, nil }, func(q) {
    return `+tc.turn+`
})
r, err := answer("ping")
if err != nil { print("error", err.kind, err.message) } else { print(r.text) }
`)
			if err != nil || strings.TrimSpace(out) != "from the loopback provider" {
				t.Fatalf("output %q, error %v", out, err)
			}
			reqs := f.requests()
			if len(reqs) != before+1 || reqs[len(reqs)-1]["model"] != "wire-fast" {
				t.Fatalf("provider saw %v", reqs[before:])
			}
		})
	}
}

// A flow's turn sends exactly the request it is given: none of the
// config's fields (tools, max_tokens, user, system) is added, on the
// wire as in the lowered request.
func TestFlowTurnSendsOnlyItsRequest(t *testing.T) {
	f := newFakeOpenAI(t, "ok")
	t.Setenv("FLOW_TEST_KEY", "sk-flow-test")
	out, err := runLive(t, `
model {
    default: "fast"
    fast: {protocol: "openai_compatible", base_url: "`+f.srv.URL+`", api_key_env: "FLOW_TEST_KEY", provider_model: "wire-fast"}
}
lookup := tool { name: "lookup", params: ["q"], fn: func(q) { return q, nil } }
answer := llm.agent("answer", func(q) {
    return {user: q, system: "config system", tools: [lookup], max_tokens: 99, temperature: 0.5}, nil
}, func(q) {
    return llm.turn({model: "fast", messages: [llm.user("only this")]})
})
r, err := answer("ping")
assert(err == nil, err)
print(r.text)
`)
	if err != nil || strings.TrimSpace(out) != "ok" {
		t.Fatalf("output %q, error %v", out, err)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	body := reqs[0]
	for _, k := range []string{"tools", "max_tokens", "temperature", "tool_choice"} {
		if _, ok := body[k]; ok {
			t.Errorf("the request carries %s from the agent's config: %v", k, body)
		}
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 1 || !strings.Contains(jsonText(msgs[0]), "only this") {
		t.Errorf("messages %v, want the flow's one user message", msgs)
	}

	// The same with a scripted provider: the lowered request has nothing
	// but the turn's own fields.
	p := &scripted{answers: []llm.TurnResult{final("ok")}}
	mustRun(t, `
lookup := tool { name: "lookup", params: ["q"], fn: func(q) { return q, nil } }
answer := llm.agent("answer", func(q) { return {user: q, tools: [lookup], max_tokens: 99, metadata: {run: "cfg"}}, nil }, func(q) {
    return llm.turn({model: "fast", messages: [llm.user(q)]})
})
r, err := answer("ping")
assert(err == nil)
`, p)
	if r := p.reqs[0]; len(r.Tools) != 0 || r.MaxTokens != 0 || len(r.Metadata) != 0 || r.Model != "fast" || len(r.Messages) != 1 {
		t.Errorf("lowered request %+v", r)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A legacy `agent name(params) { fields } flow { ... }` sees its config
// fields as locals of the flow (upstream's lowering declares each one):
// the flow passes them on explicitly, since nothing is added for it.
func TestLegacyFlowConfigLocals(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{
		calls(llm.ToolCall{ID: "c1", Tool: "lookup", Args: map[string]any{"service": "checkout"}}),
		final("brief"),
	}}
	e := mustRun(t, `
models { default: "ops", planner: "wire-planner" }

//leia:requires runbooks.read
tool lookup(service) {
    return "runbook:" .. service, nil
}

agent brief(service) {
    model: "planner"
    system: "Brief from evidence."
    tools: [lookup]
    "max_tokens": 320
    budget: {turns: 2, calls: 1}
} flow {
    h := messages { system: system, user: "Brief " .. service }
    first, err := turn { model: model, messages: h, tools: tools }
    if err != nil { return nil, err }
    call := first.calls[1]
    evidence, derr := llm.dispatch(call, tools)
    if derr != nil { return nil, derr }
    h[#h + 1] = msg.assistant_call(call)
    h[#h + 1] = msg.tool_result(call.id, evidence)
    model = "reassigned locally"
    return turn { model: "planner", messages: h, max_tokens: max_tokens, tools: tools }
}

r, err := brief("checkout")
assert(err == nil, err)
print(r.text, budget)
`, p)
	if got := e.out.String(); got != "brief\tnil\n" {
		t.Errorf("output %q (the config's locals must not leak out of the flow)", got)
	}
	if len(p.reqs) != 2 {
		t.Fatalf("%d requests", len(p.reqs))
	}
	first, second := p.reqs[0], p.reqs[1]
	if first.Model != "wire-planner" || len(first.Tools) != 1 || first.Tools[0].Name != "lookup" || first.Messages[0].Text != "Brief from evidence." {
		t.Errorf("first request %+v", first)
	}
	if second.MaxTokens != 320 || len(second.Messages) != 4 || second.Messages[3].Value != "runbook:checkout" {
		t.Errorf("second request %+v", second)
	}
}

// A legacy flow also sees the agent fields the module's `agent defaults`
// sets and its agent block leaves out (model, tools, ...), with the
// agent's own fields over them (upstream's examples/llm/agent.leia reads
// model and tools in a flow whose agent sets neither).
func TestLegacyFlowSeesAgentDefaults(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("reviewed")}}
	e := mustRun(t, `
models { default: "demo", demo: "wire-demo", other: "wire-other" }

//leia:requires docs.read
tool lookup(query) {
    return "doc:" .. query, nil
}

agent defaults {
    model: "demo"
    tools: [lookup]
    system: "from defaults"
}

agent review(question) {
    system: "Return a short answer."
    user: question
} flow {
    h := messages { system: system, user: question }
    return turn { model: model, messages: h, tools: tools }
}

r, err := review("What is Leia?")
assert(err == nil, err)
print(r.text)
`, p)
	if got := e.out.String(); got != "reviewed\n" {
		t.Errorf("output %q", got)
	}
	if len(p.reqs) != 1 {
		t.Fatalf("%d requests", len(p.reqs))
	}
	req := p.reqs[0]
	if req.Model != "wire-demo" || len(req.Tools) != 1 || req.Tools[0].Name != "lookup" || req.Messages[0].Text != "Return a short answer." {
		t.Errorf("request %+v: want the defaults' model and tools and the agent's own system", req)
	}
}
