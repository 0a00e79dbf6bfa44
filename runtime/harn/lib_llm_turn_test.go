package harn

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// turnRun is one program run of the model-turn tests.
type turnRun struct {
	tape   string // .llm-mock.jsonl content, "" none
	llm    runner.LLMConfig
	grants host.Grants
	cat    *catalog.Catalog
}

func (r turnRun) run(t *testing.T, src string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: dir, Stdout: &out, Stderr: &out, Grants: r.grants})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	opts := Options{Host: h, Library: testLibrary(t), LLM: r.llm, Evaluator: evaluate.New(evaluate.Options{Catalog: r.cat})}
	if r.tape != "" {
		opts.LLMMock, opts.LLMMockName = []byte(r.tape), "t.llm-mock.jsonl"
	}
	in, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = in.Run(context.Background(), filepath.Join(dir, "main.harn"), []byte(src))
	return out.String(), in.FinishLLM(err)
}

// fakeChat is a loopback OpenAI-compatible provider answering every
// request with text; it counts the requests.
func fakeChat(t *testing.T, text string) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"model":"served-1","choices":[{"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":3}}`, text)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func fakeCatalog(t *testing.T, base string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Default().Parse("harn.toml", []byte(fmt.Sprintf(`
[[routes]]
provider = "local"
model = "chat"
operations = ["text_generation"]
base_url = "%s/v1"
context_window = 8192
`, base)))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestLLMCallTurns: llm_call goes through runtime/llm's stack: the echo
// mock, a tape (answers, then a miss is an error), llm_mock answers, a
// live route on a loopback provider under the network grant only, strict
// replay of what a recording wrote, and the --llm-mock mode.
func TestLLMCallTurns(t *testing.T) {
	srv, requests := fakeChat(t, "live answer")
	cat := fakeCatalog(t, srv.URL)
	granted := host.Grants{NetHosts: []string{"127.0.0.1"}}
	fixture := filepath.Join(t.TempDir(), "turns.records.json")
	const callLocal = `fn main() { const r = llm_call("hello there", nil, {provider: "local", model: "chat"}); println("${r.provider} ${r.model} ${r.text} ${r.input_tokens}") }`
	for _, tc := range []struct {
		name     string
		run      turnRun
		src      string
		want     string // output, or the error's text when fails
		fails    bool
		requests int64 // loopback requests the case makes
	}{
		{name: "echo mock", src: `fn main() { const r = llm_call("hello big world", "sys", {provider: "mock", model: "m1"}); println("${r.text}|${r.model}|${r.input_tokens}|${r.output_tokens}") }`,
			want: "Mock response to 3-word prompt: hello big world|m1|15|30\n"},
		{name: "echo tool call", src: `fn main() { const r = llm_call("x", nil, {provider: "mock", tools: [{name: "look", input_schema: {type: "object", properties: {q: {type: "string"}, n: {type: "integer"}}, required: ["q", "n"]}}]}); println(r.tool_calls[0]) }`,
			want: "{arguments: {n: 0, q: }, id: mock_call_1, name: look, type: tool_call}\n"},
		{name: "tape answers in order", run: turnRun{tape: `{"text":"one"}` + "\n" + `{"text":"two","model":"m2","input_tokens":4}`},
			src:  `fn main() { println(llm_call("a").text); const r = llm_call("b"); println("${r.text} ${r.model} ${r.input_tokens}") }`,
			want: "one\ntwo m2 4\n"},
		{name: "tape miss", run: turnRun{tape: `{"text":"one"}`}, src: `fn main() { llm_call("a"); llm_call("second prompt") }`,
			fails: true, want: `No --llm-mock fixture matched prompt: "second prompt`},
		{name: "tape error answer", run: turnRun{tape: `{"error":{"category":"rate_limit","message":"slow down","retry_after_ms":1500}}`},
			src:  `fn main() { const r = llm_call_safe("a"); println("${r.error.category} ${r.error.retry_after_ms}") }`,
			want: "rate_limit 1500\n"},
		{name: "bad tape", run: turnRun{tape: `{"error":{"category":"nonsense"}}`}, src: `fn main() { llm_call("a") }`,
			fails: true, want: "t.llm-mock.jsonl:1: unknown error category `nonsense`"},
		{name: "llm_mock glob", src: `fn main() { llm_mock({match: "*weather*", text: "sunny"}); println(llm_call("the weather today").text); println(llm_call("weather again").text) }`,
			want: "sunny\nsunny\n"},
		{name: "live denied without --allow-net", run: turnRun{cat: cat}, src: `fn main() { const r = llm_call_safe("hi", nil, {provider: "local", model: "chat"}); println(r.error.category) }`,
			want: "egress_blocked\n"},
		{name: "live on the loopback", run: turnRun{cat: cat, grants: granted}, src: callLocal, want: "local served-1 live answer 7\n", requests: 1},
		{name: "unknown route", run: turnRun{cat: cat, grants: granted}, src: `fn main() { llm_call("hi", nil, {provider: "local", model: "nope"}) }`,
			fails: true, want: "no route local/nope"},
		{name: "record", run: turnRun{cat: cat, grants: granted, llm: runner.LLMConfig{Mode: runner.LLMRecord, Fixture: fixture}}, src: callLocal,
			want: "local served-1 live answer 7\n", requests: 1},
		{name: "replay", run: turnRun{cat: cat, llm: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: fixture}}, src: callLocal,
			want: "local chat live answer 7\n"},
		{name: "replay mismatch", run: turnRun{cat: cat, llm: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: fixture}},
			src:   `fn main() { llm_call("another prompt", nil, {provider: "local", model: "chat"}) }`,
			fails: true, want: "llm replay request mismatch at turn 1: Messages[0].Text"},
		{name: "replay leftover", run: turnRun{cat: cat, llm: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: fixture}}, src: `fn main() { }`,
			fails: true, want: "llm replay left 1 unconsumed turn(s)"},
		{name: "--llm-mock mode", run: turnRun{cat: cat, grants: granted, llm: runner.LLMConfig{Mode: runner.LLMMock}}, src: callLocal,
			want: "mock chat Mock response to 2-word prompt: hello there 11\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := requests.Load()
			out, err := tc.run.run(t, tc.src)
			if got := requests.Load() - before; got != tc.requests {
				t.Errorf("%d loopback requests, want %d", got, tc.requests)
			}
			if tc.fails {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one containing %q (output %q)", err, tc.want, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if out != tc.want {
				t.Errorf("output %q, want %q", out, tc.want)
			}
		})
	}
}

// TestLLMCallTrace: each Harn turn emits the metadata-only turn events
// Leia's do, naming the source; no prompt text reaches the trace.
func TestLLMCallTrace(t *testing.T) {
	var trace bytes.Buffer
	_, err := turnRun{llm: runner.LLMConfig{Trace: &trace}}.run(t, `fn main() { llm_call("secret prompt", nil, {provider: "mock"}); llm_call_safe("x", nil, {provider: "nobody", model: "none"}) }`)
	if err != nil {
		t.Fatal(err)
	}
	got := trace.String()
	for _, want := range []string{`"type":"turn_start","model":"mock"`, `"type":"turn_end","model":"mock","status":"final_answer"`, `"source":"mock"`} {
		if !strings.Contains(got, want) {
			t.Errorf("trace lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret") {
		t.Errorf("the trace holds prompt text:\n%s", got)
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("%d events, want 2 (the unknown route fails before a turn):\n%s", n, got)
	}
}

// TestLLMRecordWritesFixture: a recording run writes the fixture even
// when the program made no call.
func TestLLMRecordWritesFixture(t *testing.T) {
	fixture := filepath.Join(t.TempDir(), "none.records.json")
	if _, err := (turnRun{llm: runner.LLMConfig{Mode: runner.LLMRecord, Fixture: fixture}}).run(t, `fn main() { }`); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(fixture); err != nil || strings.TrimSpace(string(b)) != "[]" {
		t.Errorf("fixture %q, %v", b, err)
	}
}

// TestLLMCallHostileReply: Harn's model builtins read model output with
// runtime/llm's one decoder, so a hostile reply (a 100 MB tool input, a
// million blocks) is refused with a clear error, before it is all read
// and without the heap growing past 100 MB.
func TestLLMCallHostileReply(t *testing.T) {
	for _, tc := range []struct {
		name, head, body string
		total            int64
		want             string
	}{
		{"100MB tool input", `{"choices":[{"message":{"tool_calls":[{"function":{"name":"t","arguments":"`, strings.Repeat("a", 64<<10), 100 << 20, "response body exceeds"},
		{"a million blocks", `{"choices":[{"message":{"tool_calls":[`, `{},`, 3_000_000, "nests more than the bound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var written atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				n, _ := io.WriteString(w, tc.head)
				written.Add(int64(n))
				for written.Load() < tc.total {
					n, err := io.WriteString(w, tc.body)
					written.Add(int64(n))
					if err != nil {
						return
					}
				}
			}))
			defer srv.Close()
			var out string
			var err error
			peak := peakHeap(func() {
				out, err = turnRun{cat: fakeCatalog(t, srv.URL), grants: host.Grants{NetHosts: []string{"127.0.0.1"}}}.run(t,
					`fn main() { const r = llm_call_safe("q", nil, {provider: "local", model: "chat"}); println(r.error.message) }`)
			})
			if err != nil || !strings.Contains(out, "malformed_response") || !strings.Contains(out, tc.want) {
				t.Fatalf("output %q, %v; want a malformed_response error saying %q", out, err, tc.want)
			}
			if tc.total == 100<<20 && written.Load() >= tc.total {
				t.Errorf("all %d bytes were read before the refusal", written.Load())
			}
			if peak > 100<<20 {
				t.Errorf("heap peaked at %d MB", peak>>20)
			}
		})
	}
}

// peakHeap runs fn and returns the largest live heap seen meanwhile.
func peakHeap(fn func()) uint64 {
	goruntime.GC()
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	return peak.Load()
}
