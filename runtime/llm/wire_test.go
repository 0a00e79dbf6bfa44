package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/harnlang/harn-check/catalog"
)

// hostile is a reply that never ends well: write is called until it
// returns false or the client hangs up.
type hostile struct {
	name  string
	api   string
	whole bool
	// head is written once; body repeatedly (with %d the repetition),
	// up to total bytes.
	head, body string
	total      int
	want       string
}

const hostileTotal = 100 << 20

var hostiles = []hostile{
	{name: "openai endless deltas", api: catalog.APIOpenAIChat, body: "data: {\"choices\":[{\"delta\":{\"content\":\"" + strings.Repeat("x", 4000) + "\"}}]}\n\n", want: "text exceeds"},
	{name: "openai endless keep-alives", api: catalog.APIOpenAIChat, body: strings.Repeat(": keep-alive\n", 4000), want: "streamed response exceeds"},
	{name: "openai 100MB tool input", api: catalog.APIOpenAIChat, head: "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"t\",\"arguments\":\"\"}}]}}]}\n\n",
		body: "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"" + strings.Repeat("a", 64<<10) + "\"}}]}}]}\n\n", want: "tool call's input exceeds"},
	{name: "openai a million blocks", api: catalog.APIOpenAIChat, body: "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"name\":\"t\"}}]}}]}\n\n", want: "more content blocks"},
	{name: "openai line without end", api: catalog.APIOpenAIChat, head: "data: ", body: strings.Repeat("y", 64<<10), want: "stream line exceeds"},
	{name: "openai whole 100MB tool input", api: catalog.APIOpenAIChat, whole: true, head: `{"choices":[{"message":{"tool_calls":[{"function":{"name":"t","arguments":"`, body: strings.Repeat("a", 64<<10), want: "response body exceeds"},
	{name: "openai whole a million blocks", api: catalog.APIOpenAIChat, whole: true, head: `{"choices":[{"message":{"tool_calls":[`, body: `{},`, total: 3_000_000, want: "nests more than the bound"},
	{name: "anthropic endless deltas", api: catalog.APIAnthropicMessages, head: "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
		body: "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("x", 4000) + "\"}}\n\n", want: "text exceeds"},
	{name: "anthropic 100MB tool input", api: catalog.APIAnthropicMessages, head: "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"t\",\"input\":{}}}\n\n",
		body: "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"" + strings.Repeat("a", 64<<10) + "\"}}\n\n", want: "tool call's input exceeds"},
	{name: "anthropic a million blocks", api: catalog.APIAnthropicMessages, body: "data: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", want: "more content blocks"},
	{name: "anthropic line without end", api: catalog.APIAnthropicMessages, head: "data: ", body: strings.Repeat("y", 64<<10), want: "stream line exceeds"},
	{name: "anthropic whole 100MB text", api: catalog.APIAnthropicMessages, whole: true, head: `{"content":[{"type":"text","text":"`, body: strings.Repeat("a", 64<<10), want: "response body exceeds"},
	{name: "anthropic whole a million blocks", api: catalog.APIAnthropicMessages, whole: true, head: `{"content":[`, body: `{"type":"text","text":""},`, total: 26_000_000, want: "nests more than the bound"},
}

// TestHostileReplies: on every path that reads model output (each wire,
// whole and streamed) a hostile reply (endless deltas, a 100 MB tool
// input, a million blocks, a line without end) is refused with a clear
// error, without reading it all, and without the heap growing past
// 100 MB. The provider is a loopback server.
func TestHostileReplies(t *testing.T) {
	for _, h := range hostiles {
		t.Run(h.name, func(t *testing.T) {
			var written atomic.Int64
			total := h.total
			if total == 0 {
				total = hostileTotal
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				if !h.whole {
					w.Header().Set("Content-Type", "text/event-stream")
				}
				n, _ := io.WriteString(w, h.head)
				written.Add(int64(n))
				fixed := !strings.Contains(h.body, "%d")
				chunk := []byte(h.body)
				for i := 0; written.Load() < int64(total); i++ {
					if !fixed {
						chunk = fmt.Appendf(chunk[:0], h.body, i)
					}
					n, err := w.Write(chunk)
					written.Add(int64(n))
					if err != nil {
						return
					}
				}
			}))
			defer srv.Close()
			p, err := New(route(h.api, srv.URL), Options{Getenv: env, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			var onStream func(StreamEvent)
			if !h.whole {
				onStream = func(StreamEvent) {}
			}
			var turnErr error
			peak := peakHeap(func() {
				_, turnErr = p.Turn(context.Background(), TurnRequest{Messages: []TurnMessage{{Role: RoleUser, Text: "q"}}}, onStream)
			})
			var e *Error
			if !errors.As(turnErr, &e) || e.Kind != ErrMalformed || !strings.Contains(e.Detail, h.want) {
				t.Fatalf("error %v, want malformed %q", turnErr, h.want)
			}
			if total == hostileTotal && written.Load() >= int64(total) {
				t.Errorf("the client read all %d bytes before refusing", written.Load())
			}
			if peak > 100<<20 {
				t.Errorf("heap peaked at %d MB", peak>>20)
			}
		})
	}
}

// peakHeap runs fn and returns the largest live heap seen meanwhile.
func peakHeap(fn func()) uint64 {
	runtime.GC()
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

// TestRouteTimeoutBoundsATrickle: a stream that trickles forever ends at
// the route's timeout.
func TestRouteTimeoutBoundsATrickle(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for {
			if _, err := io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
	defer close(stop)
	p, _ := New(route(catalog.APIOpenAIChat, srv.URL), Options{Getenv: env, Timeout: 100 * time.Millisecond})
	_, err := p.Turn(context.Background(), TurnRequest{}, func(StreamEvent) {})
	if !isKind(err, ErrTimeout, 1) {
		t.Fatalf("trickle: %v", err)
	}
}

// fuzzDecoder feeds data to a wire decoder as a whole reply and as a
// stream (one event per line): it never panics, and what it assembles
// stays within the bounds.
func fuzzDecoder(t *testing.T, decode func(*assembly, []byte, bool) error, data []byte) {
	for _, whole := range []bool{true, false} {
		a := newAssembly(func(StreamEvent) {})
		var err error
		if whole {
			err = decode(a, data, true)
		} else {
			for _, line := range bytes.Split(data, []byte("\n")) {
				if err = decode(a, line, false); err != nil {
					break
				}
			}
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %v", err)
			}
			continue
		}
		if len(a.pieces) > MaxBlocks {
			t.Fatalf("%d blocks", len(a.pieces))
		}
		for _, p := range a.pieces {
			if p.input.Len() > MaxToolInput {
				t.Fatalf("tool input of %d bytes", p.input.Len())
			}
		}
		_, _ = a.result(nil, nil)
	}
}

// FuzzDecodeOpenAI fuzzes the one decoder of the OpenAI-compatible wire.
func FuzzDecodeOpenAI(f *testing.F) {
	f.Add([]byte(`{"model":"m","choices":[{"message":{"content":"hi","tool_calls":[{"id":"a","function":{"name":"t","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1}}`))
	f.Add([]byte("{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\"}}]}}]}\n{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"}\"}}]},\"finish_reason\":\"stop\"}]}\n{\"error\":{\"code\":\"overloaded\"}}"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecoder(t, decodeOpenAI, data) })
}

// FuzzDecodeAnthropic fuzzes the one decoder of the Anthropic-compatible
// wire.
func FuzzDecodeAnthropic(f *testing.F) {
	f.Add([]byte(`{"model":"m","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t","name":"n","input":{"k":[1]}}],"stop_reason":"tool_use"}`))
	f.Add([]byte("{\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":2}}}\n{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\"}}\n{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecoder(t, decodeAnthropic, data) })
}
