package catalog

import (
	"strings"
	"testing"
)

// TestDecision is the contract's derivation of decision support, one
// case per rule (the acceptance table in cmd/harn-check runs the same
// routes through the checker and the evaluator).
func TestDecision(t *testing.T) {
	cat, err := Default().Parse("harn.toml", []byte(`
[project]
name = "x"

[[routes]]
provider = "acme"
model = "judge"
operations = ["text_generation"]
structured_transport = "unsupported"

[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation"]

[[routes]]
provider = "acme"
model = "decider"
operations = ["decision"]

[[routes]]
provider = "acme"
model = "both"
operations = ["text_generation", "decision"]
protocol = "typesafe_system_one"
structured_transport = "tool_schema"

[[routes]]
provider = "acme"
model = "typo"
operations = ["text_generation"]
structured_transport = "tool_shema"

[[routes]]
provider = "acme"
model = "nativechat"
operations = ["text_generation"]
protocol = "vercel_evaluate"
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		provider, model, backend string
		kind, missing            string // "" kind: supported
		protocol, strategy       string
	}{
		{"typesafe", "jev-1.13", BackendNative, "", "", "typesafe_system_one", ""},
		{"typesafe", "jev-1.13", BackendStructured, RefuseBackend, OpTextGeneration, "", ""},
		{"openai", "gpt-4o", BackendStructured, "", "", "", "native_schema"},
		{"openai", "gpt-4o", BackendNative, RefuseBackend, OpDecision, "", ""},
		{"acme", "judge", BackendStructured, RefuseTransport, OpDecision, "", ""},
		{"mock", "fixture", BackendStructured, "", "", "", DefaultStrategy}, // overridden by harn.toml
		{"mock", "fixture", BackendNative, RefuseBackend, OpDecision, "", ""},
		{"mock", "chat", BackendStructured, "", "", "", DefaultStrategy},
		// Decision-only without a native protocol: structured_llm dials
		// the chat endpoint, which needs text_generation.
		{"acme", "decider", BackendStructured, RefuseOperation, OpTextGeneration, "", ""},
		{"acme", "decider", BackendNative, RefuseBackend, OpDecision, "", ""},
		// An explicit native contract takes precedence over derived
		// structured support.
		{"acme", "both", BackendStructured, RefuseBackend, OpTextGeneration, "", ""},
		{"acme", "both", BackendNative, "", "", "typesafe_system_one", ""},
		{"acme", "typo", BackendStructured, RefuseTransport, OpDecision, "", ""},
		{"acme", "nativechat", BackendNative, RefuseOperation, OpDecision, "", ""},
		{"acme", "judge", "magic", RefuseUnknownBackend, "", "", ""},
		{"nobody", "x", BackendStructured, RefuseUnknownRoute, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.provider+"/"+tc.model+"/"+tc.backend, func(t *testing.T) {
			s, ref := cat.Decision(tc.provider, tc.model, tc.backend)
			if tc.kind == "" {
				if ref != nil {
					t.Fatalf("refused: %v", ref)
				}
				if s.Protocol != tc.protocol || s.Strategy != tc.strategy || s.Backend != tc.backend || s.Route.Name() != tc.provider+"/"+tc.model {
					t.Errorf("support %+v, want protocol %q strategy %q", s, tc.protocol, tc.strategy)
				}
				return
			}
			if ref == nil {
				t.Fatalf("supported (%+v), want refusal %s", s, tc.kind)
			}
			if ref.Kind != tc.kind || ref.Missing != tc.missing {
				t.Errorf("refusal %s/%q, want %s/%q: %s", ref.Kind, ref.Missing, tc.kind, tc.missing, ref.Message)
			}
			if !strings.Contains(ref.Message, tc.provider+"/"+tc.model) && tc.kind != RefuseUnknownBackend {
				t.Errorf("message does not name the route: %s", ref.Message)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"[[routes]]\nprovider = \"a\"\n",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\noperations = [\"fly\"]\n",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\nprotocol = \"smoke\"\n",
		"[[routes]\n",
	} {
		if _, err := Default().Parse("harn.toml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), "harn.toml") {
			t.Errorf("%q: err = %v", src, err)
		}
	}
}

func TestChatAPI(t *testing.T) {
	for p, want := range map[string]string{
		"openai_compatible": APIOpenAIChat, " Anthropic ": APIAnthropicMessages, "chat_completions": APIOpenAIChat,
		"anthropic_messages": APIAnthropicMessages, "mock": APIMock, "gemini": "", "": "",
	} {
		got, ok := ChatAPI(p)
		if got != want || ok != (want != "") {
			t.Errorf("%q: got %q %v, want %q", p, got, ok, want)
		}
	}
	if n := len(ChatProtocols()); n != len(chatProtocols) {
		t.Errorf("%d names listed", n)
	}
}
