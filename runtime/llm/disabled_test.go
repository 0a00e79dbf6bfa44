package llm

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/catalog"
)

// TestCallsDisabled: with NoLiveCalls or HARN_LLM_CALLS_DISABLED a real
// provider sends nothing and names the switch; the mock still answers,
// and values other than 1/true/yes/on leave calls allowed.
func TestCallsDisabled(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {})
	cases := []struct {
		name, env string
		noLive    bool
		api       string
		refused   bool
	}{
		{"option", "", true, catalog.APIOpenAIChat, true},
		{"env 1", "1", false, catalog.APIAnthropicMessages, true},
		{"env on", "On", false, catalog.APIOpenAIChat, true},
		{"env 0", "0", false, catalog.APIOpenAIChat, false},
		{"mock allowed", "1", true, catalog.APIMock, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(CallsDisabledEnv, tc.env)
			r := route(tc.api, f.srv.URL)
			if tc.api == catalog.APIMock {
				r.Provider = "mock"
			}
			p, err := New(r, Options{Getenv: env, NoLiveCalls: tc.noLive})
			if err != nil {
				t.Fatal(err)
			}
			before := f.requests.Load()
			_, err = Chat(context.Background(), p, ChatRequest{}, nil)
			refused := err != nil && strings.Contains(err.Error(), CallsDisabledEnv)
			if refused != tc.refused {
				t.Fatalf("refused = %v, want %v (err %v)", refused, tc.refused, err)
			}
			if refused && (!isKind(err, ErrAuthorityDenied, 0) || f.requests.Load() != before) {
				t.Errorf("a refusal must be authority_denied with no request: %v", err)
			}
		})
	}
}
