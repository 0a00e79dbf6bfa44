package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// The HTTP transport: a session id the server hands out is sent back, an
// answer may come as an event stream, a session the server forgot is
// started again, and error responses keep their code.
func TestHTTPTransport(t *testing.T) {
	var mu sync.Mutex
	var log []string
	sessions := 0
	forget := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
		}
		json.Unmarshal(body, &m)
		sid := r.Header.Get("MCP-Session-Id")
		log = append(log, m.Method+" session="+sid)
		if forget && sid != "" && m.Method != "initialize" {
			forget = false
			w.WriteHeader(404)
			return
		}
		switch {
		case m.Method == "initialize":
			sessions++
			w.Header().Set("MCP-Session-Id", fmt.Sprint("s", sessions))
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25"}}`, *m.ID)
		case m.ID == nil:
			w.WriteHeader(202)
		case m.Method == "tools/list":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[{\"name\":\"echo\"}]}}\n\n", *m.ID)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found: %s"}}`, *m.ID, m.Method)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, err := HTTP(ctx, "remote", srv.URL, srv.Client(), HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := c.List(ctx, "tools/list", "tools")
	if err != nil || len(tools) != 1 || tools[0].(map[string]any)["name"] != "echo" {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	mu.Lock()
	forget = true
	mu.Unlock()
	if tools, err = c.List(ctx, "tools/list", "tools"); err != nil || len(tools) != 1 {
		t.Fatalf("after the session was forgotten: %v %v", tools, err)
	}
	_, err = c.Call(ctx, "nope", nil)
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32601 || err.Error() != "MCP error (-32601): Method not found: nope" {
		t.Fatalf("error response: %v", err)
	}
	want := strings.Join([]string{
		"initialize session=", "notifications/initialized session=s1", "tools/list session=s1",
		"tools/list session=s1", "initialize session=", "notifications/initialized session=s2", "tools/list session=s2",
		"nope session=s2"}, "\n")
	if got := strings.Join(log, "\n"); got != want {
		t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
	}
}

// A line longer than the limit ends the stream; junk lines are skipped.
func TestLineStream(t *testing.T) {
	s := &lineStream{r: newLineReader(strings.NewReader("log line\n\n{\"a\":1}\n"+strings.Repeat("x", 100)+"\n"), 64)}
	var v map[string]any
	if err := s.ReadObject(&v); err != nil || v["a"] != float64(1) {
		t.Fatalf("got %v, %v", v, err)
	}
	if err := s.ReadObject(&v); !errors.Is(err, errLineTooLong) {
		t.Fatalf("long line: %v", err)
	}
}
