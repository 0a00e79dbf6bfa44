package ai_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/runner"
)

// The live factory speaks both wires, takes the key from the environment
// only, and asks the host before any request.
func TestLiveFactory(t *testing.T) {
	const key = "sk-factory-test-1234"
	var gotAuth, gotPath []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		gotPath = append(gotPath, r.URL.Path)
		gotAuth = append(gotAuth, r.Header.Get("Authorization")+r.Header.Get("x-api-key"))
		if strings.HasSuffix(r.URL.Path, "/messages") {
			fmt.Fprint(w, `{"content":[{"type":"text","text":"from anthropic"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
			return
		}
		fmt.Fprint(w, `{"choices":[{"message":{"content":"from openai"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	t.Setenv("FACTORY_KEY", key)
	granted, _ := host.New(host.Config{Root: t.TempDir(), Grants: host.Grants{NetHosts: []string{"127.0.0.1"}}})
	denied, _ := host.New(host.Config{Root: t.TempDir()})
	t.Cleanup(func() { granted.Close(); denied.Close() })
	for _, tc := range []struct {
		name string
		h    *host.Host
		pc   ai.ProviderConfig
		want string
	}{
		{"openai with api_key from the environment", granted, ai.ProviderConfig{Name: "a", Protocol: "openai_compatible", BaseURL: srv.URL, APIKey: key, ProviderModel: "m"}, "from openai"},
		{"anthropic with api_key_env", granted, ai.ProviderConfig{Name: "b", Protocol: "anthropic", BaseURL: srv.URL, APIKeyEnv: "FACTORY_KEY", ProviderModel: "m"}, "from anthropic"},
		{"no --allow-net", denied, ai.ProviderConfig{Name: "c", Protocol: "openai", BaseURL: srv.URL, APIKeyEnv: "FACTORY_KEY"}, "not granted (--allow-net)"},
		{"mock protocol", denied, ai.ProviderConfig{Name: "d", Protocol: "mock"}, "mock reply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ai.LiveFactory(tc.h)(tc.pc)
			if err != nil {
				t.Fatal(err)
			}
			e, rerr := runLeia(t, `r, err := llm.turn({model: "m", user: "hi"})
				if err != nil { print(err.message) } else { print(r.text) }`, p, nil)
			if rerr != nil || !strings.Contains(e.out.String(), tc.want) || strings.Contains(e.out.String(), key) {
				t.Errorf("%v: %q", rerr, e.out.String())
			}
		})
	}
	for i, a := range gotAuth {
		if a != "Bearer "+key && a != key {
			t.Errorf("request %d (%s) sent %q", i, gotPath[i], a)
		}
	}
	for _, pc := range []ai.ProviderConfig{
		{Name: "e", Protocol: "openai", BaseURL: srv.URL, APIKey: "sk-literal-in-source"},
		{Name: "f", Protocol: "carrier-pigeon", BaseURL: srv.URL},
		{Name: "g", Protocol: "openai"},
	} {
		if _, err := ai.LiveFactory(granted)(pc); err == nil || strings.Contains(err.Error(), "sk-literal") {
			t.Errorf("%+v: %v", pc, err)
		}
	}
}

// A run configured with NoLiveCalls (harn-check test) refuses real model
// calls before any request, naming HARN_LLM_CALLS_DISABLED; the mock
// protocol still answers.
func TestConfigForNoLiveCalls(t *testing.T) {
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests++ }))
	defer srv.Close()
	t.Setenv("FACTORY_KEY", "sk-factory-test-1234")
	h, _ := host.New(host.Config{Root: t.TempDir(), Grants: host.Grants{NetHosts: []string{"127.0.0.1"}}})
	t.Cleanup(func() { h.Close() })
	cfg, _, err := ai.ConfigFor(h, "prog.leia", runner.LLMConfig{NoLiveCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pc   ai.ProviderConfig
		want string
	}{
		{ai.ProviderConfig{Name: "a", Protocol: "openai", BaseURL: srv.URL, APIKeyEnv: "FACTORY_KEY", ProviderModel: "m"}, "HARN_LLM_CALLS_DISABLED"},
		{ai.ProviderConfig{Name: "d", Protocol: "mock"}, "mock reply"},
	} {
		p, err := cfg.Factory(tc.pc)
		if err != nil {
			t.Fatal(err)
		}
		e, rerr := runLeia(t, `r, err := llm.turn({model: "m", user: "hi"})
			if err != nil { print(err.message) } else { print(r.text) }`, p, nil)
		if rerr != nil || !strings.Contains(e.out.String(), tc.want) {
			t.Errorf("%s: %v: %q", tc.pc.Protocol, rerr, e.out.String())
		}
	}
	if requests != 0 {
		t.Errorf("requests = %d, want 0", requests)
	}
}

// The AI modules are made at their first use, whichever comes first: the
// global toolof is llm.toolof either way, and a module first reached by
// pairs or through another module is whole.
func TestAIModulesFirstUse(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"toolof first", `func research(q) { return "r" }
tool := toolof(research, {name: "investigate"})
print(tool.name, toolof == llm.toolof, rawequal(toolof, llm.toolof))`, "investigate\ttrue\ttrue\n"},
		{"llm first", `print(type(llm.turn), toolof == llm.toolof)`, "function\ttrue\n"},
		{"pairs over msg first", `n := 0
for k, v := range pairs(msg) { n = n + 1 }
print(n > 0, type(llm.config.secret), toolof == llm.toolof)`, "true\tfunction\ttrue\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustRun(t, tc.src, ai.MockProvider())
			if out := e.out.String(); out != tc.want {
				t.Errorf("printed %q, want %q", out, tc.want)
			}
		})
	}
}
