package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// echoKey is a credential that has no known key shape: only the
// registration of the credentials actually used can remove it.
const echoKey = "echo-credential-8d1f0c-value"

// echoFake is a provider that echoes the request's credential into the
// served model, the answer's evidence and, with fail set, an error.
func echoFake(t *testing.T, fail bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		key := strings.TrimPrefix(auth, "Bearer ")
		if fail {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": "bad key " + key + " (" + auth + ")", "type": "invalid_request_error"}})
			return
		}
		answers := map[string]any{
			"safe": map[string]any{"verdict": true, "confidence": 0.9, "evidence": "saw " + key},
			"risk": map[string]any{"level": "none", "confidence": 0.9, "evidence": auth},
		}
		content, _ := json.Marshal(map[string]any{"answers": answers})
		_ = json.NewEncoder(w).Encode(map[string]any{"model": key, "choices": []any{map[string]any{
			"message": map[string]any{"content": string(content)}, "finish_reason": "stop"}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A provider that echoes the key must not put it into any file harn-check
// writes (the tape with its receipts) nor into what it prints (issue #25
// §2): the credential used is redacted wherever it appears.
func TestEchoedKeyNotPersisted(t *testing.T) {
	for _, fail := range []bool{false, true} {
		t.Run(fmt.Sprintf("error=%v", fail), func(t *testing.T) {
			srv := echoFake(t, fail)
			dir := t.TempDir()
			cat := writeFile(t, dir, "harn.toml", fmt.Sprintf(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "native_schema"
base_url = "%s/v1"
api_key_env = "ECHO_KEY"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0
`, srv.URL))
			req := writeFile(t, dir, "request.json", `{"site_id": "s.v1", "state": "ls", "questions": `+cliQuestion+`,
	  "policy": {"backend": "structured_llm", "provider": "local", "model": "judge", "threshold": 0.5}}`)
			tape := filepath.Join(dir, "probe.tape")
			var out, errb bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cacheDir: t.TempDir(),
				getenv: func(k string) string {
					if k == "ECHO_KEY" {
						return echoKey
					}
					return ""
				}}
			code := run(e, []string{"llm", "evaluate", "--catalog", cat, "--request", req, "--tape", tape, "--json"})
			if !fail && (code != 0 || !strings.Contains(out.String(), "[redacted]")) {
				t.Errorf("exit %d: the echoed key was not seen redacted:\n%s\n%s", code, out.String(), errb.String())
			}
			if strings.Contains(out.String()+errb.String(), echoKey) {
				t.Errorf("the key was printed:\n%s\n%s", out.String(), errb.String())
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, f := range files {
				if data, err := os.ReadFile(f); err == nil && bytes.Contains(data, []byte(echoKey)) {
					t.Errorf("%s holds the key:\n%s", filepath.Base(f), data)
				}
			}
			if _, err := os.Stat(tape); err != nil && !fail {
				t.Errorf("no tape written: %v", err)
			}
		})
	}
}
