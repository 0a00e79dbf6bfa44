package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/harnlang/harn-check/catalog"
)

const fakeKey = "sk-fake-SECRET-0123456789"

// fake is a loopback provider that records each request and answers
// with handler.
type fake struct {
	srv      *httptest.Server
	requests atomic.Int64
	last     atomic.Pointer[captured]
}

type captured struct {
	path   string
	header http.Header
	body   map[string]any
}

func newFake(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, body map[string]any)) *fake {
	t.Helper()
	f := &fake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		f.last.Store(&captured{path: r.URL.Path, header: r.Header.Clone(), body: body})
		handler(w, r, body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func route(api, base string) catalog.Route {
	r := catalog.Route{Provider: "fake", Model: "m", Operations: []string{catalog.OpTextGeneration}}
	r.Runtime = catalog.Runtime{API: api, BaseURL: base, APIKeyEnv: "FAKE_KEY", WireModel: "wire-m", TimeoutMS: 2000}
	return r
}

func env(name string) (string, bool) {
	if name == "FAKE_KEY" {
		return fakeKey, true
	}
	return "", false
}

func provider(t *testing.T, api, base string) Provider {
	t.Helper()
	p, err := New(route(api, base), Options{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func zero() *float64 { z := 0.0; return &z }

var schema = json.RawMessage(`{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}},"additionalProperties":false}`)

func TestOpenAIChatWire(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		fmt.Fprint(w, `{"id":"c1","model":"wire-m-2025","choices":[{"index":0,"message":{"role":"assistant","content":"{\"ok\": true}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}}`)
	})
	p := provider(t, catalog.APIOpenAIChat, f.srv.URL+"/v1")
	for _, strategy := range []string{StrategyNativeSchema, StrategyToolSchema, StrategyFormatSchema, StrategyPromptValidation} {
		resp, err := Chat(context.Background(), p, ChatRequest{System: "sys", Messages: []Message{{Role: RoleUser, Content: "hi"}},
			MaxTokens: 50, Temperature: zero(), Effort: "low", Output: &Output{Name: "answers", Schema: schema, Strategy: strategy}}, nil)
		if strategy == StrategyToolSchema {
			// The fake answered with text, not a tool call: no data.
			if err != nil || resp.Data != nil {
				t.Errorf("tool_schema: data %s, err %v", resp.Data, err)
			}
		} else if err != nil || string(resp.Data) != `{"ok": true}` {
			t.Fatalf("%s: %v %+v", strategy, err, resp)
		}
		c := f.last.Load()
		if c.path != "/v1/chat/completions" || c.header.Get("Authorization") != "Bearer "+fakeKey || c.body["model"] != "wire-m" ||
			c.body["temperature"] != 0.0 || c.body["max_tokens"] != 50.0 || c.body["reasoning_effort"] != "low" {
			t.Errorf("%s: request %s %v %v", strategy, c.path, c.header, c.body)
		}
		msgs := c.body["messages"].([]any)
		sys := msgs[0].(map[string]any)
		if sys["role"] != "system" || msgs[1].(map[string]any)["content"] != "hi" {
			t.Errorf("messages %v", msgs)
		}
		hasSchemaInPrompt := strings.Contains(sys["content"].(string), PromptSchemaInstruction)
		switch strategy {
		case StrategyNativeSchema:
			rf := c.body["response_format"].(map[string]any)
			js := rf["json_schema"].(map[string]any)
			if rf["type"] != "json_schema" || js["strict"] != true || js["name"] != "answers" || hasSchemaInPrompt {
				t.Errorf("native_schema body %v", c.body)
			}
		case StrategyToolSchema:
			tc := c.body["tool_choice"].(map[string]any)
			if tc["type"] != "function" || c.body["tools"] == nil || hasSchemaInPrompt {
				t.Errorf("tool_schema body %v", c.body)
			}
		case StrategyFormatSchema:
			if c.body["format"] == nil || hasSchemaInPrompt {
				t.Errorf("format_schema body %v", c.body)
			}
		case StrategyPromptValidation:
			if c.body["response_format"] != nil || c.body["tools"] != nil || !hasSchemaInPrompt {
				t.Errorf("prompt_validation body %v", c.body)
			}
		}
		if resp.ServedModel != "wire-m-2025" || *resp.Usage.InputTokens != 12 || *resp.Usage.OutputTokens != 3 || *resp.Usage.CacheReadTokens != 4 || resp.StopReason != StopEnd || resp.Attempts != 1 {
			t.Errorf("%s: response %+v", strategy, resp)
		}
	}
	if n := f.requests.Load(); n != 4 {
		t.Errorf("requests = %d, want 4", n)
	}
}

func TestOpenAIToolCallAndStream(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] != true {
			fmt.Fprint(w, `{"model":"m1","choices":[{"message":{"content":null,"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"answers","arguments":"{\"ok\":false}"}}]},"finish_reason":"tool_calls"}]}`)
			return
		}
		if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
			t.Errorf("stream_options %v", body["stream_options"])
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range []string{
			`{"model":"m2","choices":[{"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`,
			`{"model":"m2","choices":[{"delta":{"content":"lo"},"finish_reason":null}]}`,
			`{"model":"m2","choices":[{"delta":{},"finish_reason":"length"}]}`,
			`{"model":"m2","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", chunk)
			w.(http.Flusher).Flush()
		}
	})
	p := provider(t, catalog.APIOpenAIChat, f.srv.URL)
	resp, err := Chat(context.Background(), p, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "x"}},
		Output: &Output{Schema: schema, Strategy: StrategyToolSchema}}, nil)
	if err != nil || string(resp.Data) != `{"ok":false}` || resp.StopReason != StopToolUse || resp.Usage.Known() {
		t.Fatalf("tool call: %v %+v", err, resp)
	}
	var deltas []string
	resp, err = Chat(context.Background(), p, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "x"}}}, func(d Delta) { deltas = append(deltas, d.Text) })
	if err != nil || resp.Text != "Hello" || strings.Join(deltas, "|") != "Hel|lo" || resp.StopReason != StopLength ||
		*resp.Usage.InputTokens != 7 || resp.ServedModel != "m2" {
		t.Fatalf("stream: %v %+v %v", err, resp, deltas)
	}
}

func TestAnthropicWire(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] != true {
			fmt.Fprint(w, `{"id":"msg","type":"message","role":"assistant","model":"claude-x-1","content":[{"type":"tool_use","id":"tu","name":"answers","input":{"ok":true}}],"stop_reason":"tool_use","usage":{"input_tokens":20,"output_tokens":5,"cache_read_input_tokens":2}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range [][2]string{
			{"message_start", `{"type":"message_start","message":{"model":"claude-x-2","content":[],"usage":{"input_tokens":9,"output_tokens":1}}}`},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
			{"ping", `{"type":"ping"}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi "}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"there"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}`},
			{"message_stop", `{"type":"message_stop"}`},
		} {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
		}
	})
	p := provider(t, catalog.APIAnthropicMessages, f.srv.URL+"/v1/")
	resp, err := Chat(context.Background(), p, ChatRequest{System: "sys", Messages: []Message{{Role: RoleUser, Content: "q"}},
		Temperature: zero(), Output: &Output{Name: "answers", Schema: schema, Strategy: StrategyToolSchema}}, nil)
	if err != nil || string(resp.Data) != `{"ok":true}` || resp.ServedModel != "claude-x-1" || *resp.Usage.CacheReadTokens != 2 || resp.StopReason != StopToolUse {
		t.Fatalf("anthropic: %v %+v", err, resp)
	}
	c := f.last.Load()
	if c.path != "/v1/messages" || c.header.Get("x-api-key") != fakeKey || c.header.Get("Authorization") != "" ||
		c.header.Get("anthropic-version") != AnthropicVersion || c.body["system"] != "sys" || c.body["max_tokens"] != float64(DefaultAnthropicMaxTokens) {
		t.Errorf("request %s %v %v", c.path, c.header, c.body)
	}
	if tc := c.body["tool_choice"].(map[string]any); tc["type"] != "tool" || tc["name"] != "answers" {
		t.Errorf("tool_choice %v", tc)
	}
	var deltas []string
	resp, err = Chat(context.Background(), p, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, func(d Delta) { deltas = append(deltas, d.Text) })
	if err != nil || resp.Text != "Hi there" || len(deltas) != 2 || *resp.Usage.InputTokens != 9 || *resp.Usage.OutputTokens != 4 || resp.StopReason != StopEnd {
		t.Fatalf("anthropic stream: %v %+v", err, resp)
	}
	if _, err := Chat(context.Background(), p, ChatRequest{Effort: "high", Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil); !isKind(err, ErrUnsupported, 0) {
		t.Errorf("effort on anthropic: %v", err)
	}
	if n := f.requests.Load(); n != 2 {
		t.Errorf("requests = %d, want 2 (the unsupported option made none)", n)
	}
}

func isKind(err error, kind ErrorKind, attempts int) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind && e.Attempts == attempts
}

// Every failure is typed, made with exactly one request (zero when it is
// refused locally), never retried, never redirected, and never carries the
// credential or provider prose.
func TestTypedFailures(t *testing.T) {
	var redirectTargetHits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { redirectTargetHits.Add(1) }))
	defer target.Close()
	tests := []struct {
		name     string
		handler  func(w http.ResponseWriter)
		kind     ErrorKind
		retry    *int64
		code     string
		attempts int
	}{
		{"429 retry-after seconds", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"type":"rate_limit_error","message":"slow down `+fakeKey+`"}}`)
		}, ErrRateLimited, ptr(2000), "rate_limit_error", 1},
		{"429 retry-after-ms", func(w http.ResponseWriter) {
			w.Header().Set("retry-after-ms", "1500")
			w.WriteHeader(429)
		}, ErrRateLimited, ptr(1500), "", 1},
		{"429 without delay", func(w http.ResponseWriter) { w.WriteHeader(429) }, ErrRateLimited, nil, "", 1},
		{"529", func(w http.ResponseWriter) {
			w.WriteHeader(529)
			fmt.Fprint(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
		}, ErrOverloaded, nil, "overloaded_error", 1},
		{"503", func(w http.ResponseWriter) { w.WriteHeader(503) }, ErrOverloaded, nil, "", 1},
		{"401 echoing the key", func(w http.ResponseWriter) {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"error":{"code":"invalid_api_key","message":"Incorrect API key provided: `+fakeKey+`"}}`)
		}, ErrAuthorityDenied, nil, "invalid_api_key", 1},
		{"403", func(w http.ResponseWriter) { w.WriteHeader(403) }, ErrAuthorityDenied, nil, "", 1},
		{"302 not followed", func(w http.ResponseWriter) {
			w.Header().Set("Location", target.URL)
			w.WriteHeader(302)
		}, ErrRedirect, nil, "", 1},
		{"307 not followed", func(w http.ResponseWriter) {
			w.Header().Set("Location", target.URL)
			w.WriteHeader(307)
		}, ErrRedirect, nil, "", 1},
		{"context window", func(w http.ResponseWriter) {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error":{"code":"context_length_exceeded","message":"This model's maximum context length is 8192 tokens"}}`)
		}, ErrContextWindow, nil, "context_length_exceeded", 1},
		{"500 with prose code", func(w http.ResponseWriter) {
			w.WriteHeader(500)
			fmt.Fprint(w, `{"error":{"code":"the state was: TOP SECRET STATE","message":"x"}}`)
		}, ErrStatus, nil, "", 1},
		{"malformed 200", func(w http.ResponseWriter) { fmt.Fprint(w, `not json`) }, ErrMalformed, nil, "", 1},
		{"timeout", func(w http.ResponseWriter) { time.Sleep(400 * time.Millisecond) }, ErrTimeout, nil, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) { tc.handler(w) })
			p, _ := New(route(catalog.APIOpenAIChat, f.srv.URL), Options{Getenv: env, Timeout: 150 * time.Millisecond})
			_, err := Chat(context.Background(), p, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "TOP SECRET STATE"}}}, nil)
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || e.Attempts != tc.attempts || e.Code != tc.code {
				t.Fatalf("err = %#v, want kind %s code %q", err, tc.kind, tc.code)
			}
			if (tc.retry == nil) != (e.RetryAfterMS == nil) || (tc.retry != nil && *tc.retry != *e.RetryAfterMS) {
				t.Errorf("retry after = %v, want %v", e.RetryAfterMS, tc.retry)
			}
			if n := f.requests.Load(); n != 1 {
				t.Errorf("requests = %d, want exactly 1", n)
			}
			if msg := err.Error(); strings.Contains(msg, fakeKey) || strings.Contains(msg, "TOP SECRET") || strings.Contains(msg, f.srv.URL) {
				t.Errorf("error text leaks: %s", msg)
			}
		})
	}
	if n := redirectTargetHits.Load(); n != 0 {
		t.Errorf("a redirect was followed %d time(s)", n)
	}
}

func ptr(n int64) *int64 { return &n }

func TestLocalRefusalsMakeNoRequest(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {})
	noKey := func(string) (string, bool) { return "", false }
	p, _ := New(route(catalog.APIOpenAIChat, f.srv.URL), Options{Getenv: noKey})
	_, err := Chat(context.Background(), p, ChatRequest{}, nil)
	if !isKind(err, ErrAuthorityDenied, 0) || !strings.Contains(err.Error(), "FAKE_KEY is not set") {
		t.Errorf("missing key: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Chat(ctx, provider(t, catalog.APIOpenAIChat, f.srv.URL), ChatRequest{}, nil)
	if !isKind(err, ErrCancelled, 0) {
		t.Errorf("cancelled: %v", err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	_, err = Chat(dctx, provider(t, catalog.APIOpenAIChat, f.srv.URL), ChatRequest{}, nil)
	if !isKind(err, ErrDeadline, 0) {
		t.Errorf("deadline: %v", err)
	}
	_, err = Chat(context.Background(), provider(t, catalog.APIOpenAIChat, ""), ChatRequest{}, nil)
	if !isKind(err, ErrUnconfigured, 0) {
		t.Errorf("no base url: %v", err)
	}
	_, err = Chat(context.Background(), provider(t, catalog.APIOpenAIChat, f.srv.URL), ChatRequest{Output: &Output{Schema: schema, Strategy: "telepathy"}}, nil)
	if !isKind(err, ErrUnsupported, 0) {
		t.Errorf("strategy: %v", err)
	}
	denied, _ := New(route(catalog.APIOpenAIChat, f.srv.URL), Options{Getenv: env, CheckNet: func(addr string) error {
		if !strings.HasPrefix(addr, "127.0.0.1:") {
			t.Errorf("checked %q", addr)
		}
		return errors.New("denied")
	}})
	_, err = Chat(context.Background(), denied, ChatRequest{}, nil)
	if !isKind(err, ErrAuthorityDenied, 0) || !strings.Contains(err.Error(), "--allow-net") {
		t.Errorf("network grant: %v", err)
	}
	if n := f.requests.Load(); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = Chat(context.Background(), provider(t, catalog.APIOpenAIChat, "http://"+addr), ChatRequest{}, nil)
	if !isKind(err, ErrTransport, 1) || strings.Contains(err.Error(), addr) {
		t.Errorf("refused: %v", err)
	}
}

func TestCallerCancelsMidRequest(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) { <-release })
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for f.requests.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := Chat(ctx, provider(t, catalog.APIOpenAIChat, f.srv.URL), ChatRequest{}, nil)
	if !isKind(err, ErrCancelled, 1) {
		t.Errorf("cancel mid-request: %v", err)
	}
}

func TestMock(t *testing.T) {
	r := catalog.Default()
	cat, err := r.Parse("harn.toml", []byte(`
[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation", "decision"]
context_window = 128000
[routes.mock]
text = "hello there"
[routes.mock.answers.safe]
verdict = false
confidence = 0.75
evidence = "configured"
[routes.mock.answers.pick]
choice = "b"
`))
	if err != nil {
		t.Fatal(err)
	}
	fx, _ := cat.LookupName("mock/fixture")
	p, _ := New(fx, Options{})
	m := p.(*Mock)
	var deltas []string
	resp, err := Chat(context.Background(), m, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, func(d Delta) { deltas = append(deltas, d.Text) })
	if err != nil || resp.Text != "hello there" || strings.Join(deltas, "") != "hello there" || resp.ServedModel != "fixture" || !resp.Usage.Known() {
		t.Fatalf("%v %+v", err, resp)
	}
	answers := json.RawMessage(`{"type":"object","required":["answers"],"properties":{"answers":{"type":"object","required":["safe","pick","other"],"properties":{
		"safe":{"type":"object","required":["verdict","confidence","evidence"],"properties":{"verdict":{"type":"boolean"},"confidence":{"type":"number"},"evidence":{"type":"string"}}},
		"pick":{"type":"object","required":["choice","confidence","evidence"],"properties":{"choice":{"type":"string","enum":["a","b"]},"confidence":{"type":"number"},"evidence":{"type":"string"}}},
		"other":{"type":"object","required":["level","confidence","evidence"],"properties":{"level":{"type":"string","enum":["low","high"]},"confidence":{"type":"number"},"evidence":{"type":"string"}}}}}}}`)
	resp, err = Chat(context.Background(), m, ChatRequest{Output: &Output{Schema: answers, Strategy: StrategyPromptValidation}}, nil)
	want := `{"answers":{"other":{"confidence":0.9,"evidence":"mock evidence","level":"low"},"pick":{"choice":"b","confidence":0.9,"evidence":"mock evidence"},"safe":{"confidence":0.75,"evidence":"configured","verdict":false}}}`
	if err != nil || string(resp.Data) != want || resp.Text != want {
		t.Errorf("schema answer = %s (%v), want %s", resp.Data, err, want)
	}
	if m.Requests() != 2 {
		t.Errorf("requests = %d", m.Requests())
	}
}

func TestExtractJSON(t *testing.T) {
	for in, want := range map[string]string{
		` {"a":1} `:                  `{"a":1}`,
		"```json\n{\"a\":1}\n```":    "{\"a\":1}",
		"```\n[1]\n```":              "[1]",
		"Sure! {\"a\":1}":            "",
		"```json\n{\"a\":1}\n``` ok": "",
	} {
		if got := string(ExtractJSON(in)); got != want {
			t.Errorf("ExtractJSON(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadTapeErrors(t *testing.T) {
	for src, want := range map[string]string{
		"":                   "empty tape",
		`{"schema":"other"}`: "not a tape",
		"{\"schema\":\"harn-check.tape.v1\"}\n{\"seq\":2,\"kind\":\"chat\",\"identity\":\"x\",\"response\":{}}":             "out of order",
		"{\"schema\":\"harn-check.tape.v1\"}\n{\"seq\":1,\"kind\":\"chat\",\"identity\":\"x\",\"response\":{},\"extra\":1}": "unknown field",
		"{\"schema\":\"harn-check.tape.v1\"}\n{\"seq\":1,\"kind\":\"chat\"}":                                                "needs kind, identity and response",
	} {
		if _, err := ReadTape(strings.NewReader(src), "t.tape"); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "t.tape") {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// Exchanges are recorded in the order they began, whatever order they
// finished in; an unfinished one is left out.
func TestTapeReservations(t *testing.T) {
	tape := NewRecordingTape()
	first, second, third := tape.Reserve(), tape.Reserve(), tape.Reserve()
	if err := tape.Fill(third, "evaluation", "c", map[string]any{}, "3"); err != nil {
		t.Fatal(err)
	}
	if err := tape.Fill(first, "evaluation", "a", map[string]any{}, "1"); err != nil {
		t.Fatal(err)
	}
	if err := tape.Fill(first, "evaluation", "a", map[string]any{}, "1"); err == nil {
		t.Error("a position was filled twice")
	}
	_ = second // never finished
	var b bytes.Buffer
	_, _ = tape.WriteTo(&b)
	replay, err := ReadTape(&b, "t")
	if err != nil {
		t.Fatal(err)
	}
	rs := replay.Records()
	if len(rs) != 2 || rs[0].Identity != "a" || rs[1].Identity != "c" || rs[1].Seq != 2 {
		t.Errorf("records %+v", rs)
	}
}
