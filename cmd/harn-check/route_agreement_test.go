package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/catalog"
)

// routeFake is a loopback provider that records the path of every request
// and answers chat completions with the one boolean question answered.
func routeFake(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			// A native protocol: the dispatch is what is asserted.
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		content, _ := json.Marshal(map[string]any{"answers": map[string]any{
			"route.case.v1": map[string]any{"verdict": true, "confidence": 0.9, "evidence": "cited"}}})
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "judge-2026", "choices": []any{map[string]any{
			"message": map[string]any{"content": string(content)}, "finish_reason": "stop"}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20}})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := paths
		paths = nil
		return out
	}
}

// routeCatalog is the harn.toml of the agreement cases: every project
// route points at the loopback provider.
const routeCatalog = `
[[routes]]
provider = "acme"
model = "chat"
operations = ["text_generation"]
structured_transport = "native_schema"
%[1]s

[[routes]]
provider = "acme"
model = "decider"
operations = ["decision"]
%[1]s

[[routes]]
provider = "acme"
model = "native-chat"
operations = ["text_generation", "decision"]
protocol = "typesafe_system_one"
structured_transport = "tool_schema"
state_window_tokens = 32000
%[1]s

[[routes]]
provider = "acme"
model = "nochat"
operations = ["text_generation", "decision"]
structured_transport = "unsupported"
%[1]s

[[routes]]
provider = "acme"
model = "typo"
operations = ["text_generation"]
structured_transport = "tool_shema"
%[1]s
`

// routeKeys are the runtime keys every project route of routeCatalog shares.
const routeKeys = `base_url = "%s/v1"
api_key_env = "FAKE_KEY"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 0.0`

// TestRouteAgreement runs each route through the checker and through
// execution against a loopback provider: a route the checker accepts is
// dispatched to its endpoint, one it rejects is refused before dispatch,
// and the refusal the run records is the sentence the checker reports
// (both come from catalog.Route.Decision). The decision-only and native
// with text generation cases are the disagreements of issue 23.
func TestRouteAgreement(t *testing.T) {
	srv, requests := routeFake(t)
	dir := t.TempDir()
	toml := fmt.Sprintf(routeCatalog, fmt.Sprintf(routeKeys, srv.URL))
	writeFile(t, dir, catalog.File, toml)
	cat, _, err := catalog.Load(catalog.OS, filepath.Join(dir, catalog.File))
	if err != nil {
		t.Fatal(err)
	}
	grant := "--allow-net=" + strings.TrimPrefix(srv.URL, "http://")
	t.Setenv("FAKE_KEY", cliFakeKey)
	tests := []struct {
		name, backend, provider, model string
		// endpoint is the path an accepted route is dispatched to ("":
		// no HTTP request, the built-in mock); reason the outcome's
		// reason of a rejected one.
		accepted bool
		endpoint string
		reason   string
	}{
		{"built-in mock route", "structured_llm", "mock", "fixture", true, "", ""},
		{"built-in native route as structured", "structured_llm", "typesafe", "jev-1.13", false, "", "unsupported_options"},
		{"built-in chat route as native", "native_decision", "openai", "gpt-4o", false, "", "unsupported_options"},
		{"project chat route", "structured_llm", "acme", "chat", true, "/v1/chat/completions", ""},
		{"decision-only route as structured", "structured_llm", "acme", "decider", false, "", "model_unconfigured"},
		{"decision-only route as native", "native_decision", "acme", "decider", false, "", "unsupported_options"},
		{"native route with text generation as structured", "structured_llm", "acme", "native-chat", false, "", "unsupported_options"},
		{"native route with text generation as native", "native_decision", "acme", "native-chat", true, "/v1/systemone", ""},
		{"explicit unsupported transport", "structured_llm", "acme", "nochat", false, "", "model_unconfigured"},
		{"unknown transport", "structured_llm", "acme", "typo", false, "", "model_unconfigured"},
		{"unknown route", "structured_llm", "acme", "nobody", false, "", "model_unconfigured"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			program := writeFile(t, dir, fmt.Sprintf("case%d.harn", i), fmt.Sprintf(`import "std/predicate"

pipeline main(harness: Harness) {
  const r = harness.llm.evaluate_predicate("route.case.v1", "Is it?", {x: 1}, {backend: %q, provider: %q, model: %q, threshold: 0.5})
  log("${r.kind} ${r}")
}
`, tc.backend, tc.provider, tc.model))
			_, want := cat.Decision(tc.provider, tc.model, tc.backend)
			if (want == nil) != tc.accepted {
				t.Fatalf("the catalog's derivation says accepted=%v (%v)", want == nil, want)
			}

			// The checker.
			code, out, errs := runCLI(t, program)
			if tc.accepted {
				if code != exitOK {
					t.Fatalf("checker rejects an accepted route: exit %d\n%s%s", code, out, errs)
				}
			} else if code != exitFail || !strings.Contains(out, "HARN-TYP-035") || !strings.Contains(out, want.Message) {
				t.Fatalf("checker: exit %d, want HARN-TYP-035 %q\n%s%s", code, want.Message, out, errs)
			}

			// Execution, unchecked, with the network granted.
			requests()
			record := filepath.Join(t.TempDir(), "run.json")
			code, out, errs = runCLI(t, "run", "--no-check", "--run-cost-limit", "1", "--run-record", record, grant, program)
			got := requests()
			if code != exitOK {
				t.Fatalf("run: exit %d\n%s%s", code, out, errs)
			}
			rr, data := readRunRecord(t, record)
			if len(rr.Evidence.Receipts) != 1 {
				t.Fatalf("run record %s", data)
			}
			rc := rr.Evidence.Receipts[0]
			if tc.accepted {
				wantPaths := []string{}
				if tc.endpoint != "" {
					wantPaths = []string{tc.endpoint}
				}
				if fmt.Sprint(got) != fmt.Sprint(wantPaths) || rc["physical_attempts"] != 1.0 {
					t.Errorf("accepted route dispatched to %v (attempts %v), want %v\n%s", got, rc["physical_attempts"], wantPaths, out)
				}
				return
			}
			if len(got) != 0 || rc["physical_attempts"] != 0.0 {
				t.Errorf("rejected route dispatched to %v", got)
			}
			if !strings.HasPrefix(out, "[harn] unavailable ") || !strings.Contains(out, "reason: "+tc.reason) {
				t.Errorf("outcome %q, want unavailable/%s", out, tc.reason)
			}
			if want.Kind != catalog.RefuseUnknownRoute && rc["provider_reason"] != want.Message {
				t.Errorf("run's reason %q, checker's %q", rc["provider_reason"], want.Message)
			}
		})
	}
}

// TestRunCatalogPreCheck: `run --catalog F` checks with F, so a route
// that exists only in F runs without --no-check, and an invalid F is the
// checker's HARN-CFG-001 whether or not the check runs.
func TestRunCatalogPreCheck(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, dir, "routes.toml", `[[routes]]
provider = "mock"
model = "only-in-file"
operations = ["text_generation", "decision"]
context_window = 8192
`)
	bad := writeFile(t, dir, "bad.toml", "[[routes]]\nprovider = \"mock\"\n")
	sub := filepath.Join(dir, "prog")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	program := writeFile(t, sub, "p.harn", `import "std/predicate"

pipeline main(harness: Harness) {
  const r = harness.llm.evaluate_predicate("only.v1", "Is it?", {x: 1}, {backend: "structured_llm", provider: "mock", model: "only-in-file", threshold: 0.5})
  log(r.kind)
}
`)
	if code, out, errs := runCLI(t, "run", "--catalog", cfg, program); code != exitOK || out != "[harn] verdict\n" {
		t.Errorf("run --catalog: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "run", program); code != exitFail || !strings.Contains(errs, "HARN-TYP-035") {
		t.Errorf("run without the file: exit %d, want HARN-TYP-035\n%s", code, errs)
	}
	for _, args := range [][]string{{"run", "--catalog", bad, program}, {"run", "--no-check", "--catalog", bad, program}} {
		code, out, errs := runCLI(t, args...)
		if code != exitFail || out != "" || !strings.Contains(errs, "error[HARN-CFG-001]: "+filepath.ToSlash(bad)+": routes[0]: provider and model are required") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
