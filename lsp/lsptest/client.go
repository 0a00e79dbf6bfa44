package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/lsp"
)

// Message is one message the server sent.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error formats the code and message.
func (e *RPCError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// Client is an in-process LSP client connected to a server over pipes.
type Client struct {
	t    testing.TB
	in   *io.PipeWriter // the server's stdin
	done chan error     // Serve's result

	mu sync.Mutex
	// cond is signalled whenever a message arrives.
	cond     *sync.Cond
	nextID   int
	pending  map[string]chan Message
	messages []Message // notifications and responses nobody waits for
	closed   bool
}

// Timeout bounds every wait of the client.
var Timeout = 20 * time.Second

// Start runs a server with opts and connects a client to it. The server is
// stopped when the test ends.
func Start(t testing.TB, opts lsp.Options) *Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &Client{t: t, in: inW, done: make(chan error, 1), pending: map[string]chan Message{}}
	c.cond = sync.NewCond(&c.mu)
	srv := lsp.New(opts)
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go c.read(outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(Timeout):
			t.Errorf("server did not stop")
		}
	})
	return c
}

func (c *Client) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		body, err := readFrame(br)
		if err != nil {
			c.mu.Lock()
			c.closed = true
			c.cond.Broadcast()
			for _, ch := range c.pending {
				close(ch)
			}
			c.pending = map[string]chan Message{}
			c.mu.Unlock()
			return
		}
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent malformed JSON: %v: %q", err, body)
			continue
		}
		c.mu.Lock()
		if m.Method == "" && m.ID != nil {
			if ch, ok := c.pending[string(m.ID)]; ok {
				delete(c.pending, string(m.ID))
				ch <- m
				c.mu.Unlock()
				continue
			}
		}
		c.messages = append(c.messages, m)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

func readFrame(br *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, err = strconv.Atoi(v)
			if err != nil {
				return nil, err
			}
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("frame without Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(br, body)
	return body, err
}

// Raw writes bytes to the server's input as they are.
func (c *Client) Raw(b []byte) {
	c.t.Helper()
	if _, err := c.in.Write(b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// Frame writes body in one Content-Length frame.
func (c *Client) Frame(body string) {
	c.t.Helper()
	c.Raw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)))
}

func (c *Client) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.Frame(string(data))
}

// Call sends a request and waits for its response.
func (c *Client) Call(method string, params any) Message {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan Message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	select {
	case m, ok := <-ch:
		if !ok {
			c.t.Fatalf("%s: connection closed before the response", method)
		}
		return m
	case <-time.After(Timeout):
		c.t.Fatalf("%s: no response within %v", method, Timeout)
	}
	return Message{}
}

// Go sends a request without waiting: it returns the request's id and a
// function that waits for the response.
func (c *Client) Go(method string, params any) (int, func() Message) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	n := c.nextID
	id := strconv.Itoa(n)
	ch := make(chan Message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": params})
	return n, func() Message {
		c.t.Helper()
		select {
		case m, ok := <-ch:
			if !ok {
				c.t.Fatalf("%s: connection closed before the response", method)
			}
			return m
		case <-time.After(Timeout):
			c.t.Fatalf("%s: no response within %v", method, Timeout)
		}
		return Message{}
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Wait returns (and removes) the first unclaimed message satisfying ok,
// waiting for it to arrive.
func (c *Client) Wait(what string, ok func(Message) bool) Message {
	c.t.Helper()
	deadline := time.Now().Add(Timeout)
	timer := time.AfterFunc(Timeout, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i, m := range c.messages {
			if ok(m) {
				c.messages = append(c.messages[:i:i], c.messages[i+1:]...)
				return m
			}
		}
		if c.closed || time.Now().After(deadline) {
			c.t.Fatalf("waiting for %s: not received (closed=%v)", what, c.closed)
		}
		c.cond.Wait()
	}
}

// Messages returns (and removes) every unclaimed message received so far.
func (c *Client) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.messages
	c.messages = nil
	return out
}

// Diagnostics is a publishDiagnostics notification's params.
type Diagnostics struct {
	URI         string            `json:"uri"`
	Version     *int32            `json:"version,omitempty"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
}

// WaitDiagnostics waits for diagnostics of uri published for version (or
// for any version when version < 0) and returns them.
func (c *Client) WaitDiagnostics(uri string, version int32) Diagnostics {
	c.t.Helper()
	var out Diagnostics
	c.Wait(fmt.Sprintf("diagnostics of %s version %d", uri, version), func(m Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var d Diagnostics
		if json.Unmarshal(m.Params, &d) != nil || d.URI != uri {
			return false
		}
		if version >= 0 && (d.Version == nil || *d.Version != version) {
			return false
		}
		out = d
		return true
	})
	return out
}

// Initialize performs the initialize handshake with capabilities caps
// (nil for a client with no optional capabilities).
func (c *Client) Initialize(rootURI string, caps any) Message {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	m := c.Call("initialize", map[string]any{"processId": nil, "rootUri": rootURI, "capabilities": caps,
		"clientInfo": map[string]any{"name": "lsptest"}})
	if m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error)
	}
	c.Notify("initialized", map[string]any{})
	return m
}

// Open opens a document.
func (c *Client) Open(uri, languageID string, version int32, text string) {
	c.t.Helper()
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": languageID, "version": version, "text": text}})
}

// Edit is one incremental content change.
type Edit struct {
	StartLine, StartChar, EndLine, EndChar int
	Text                                   string
}

// Change sends an incremental didChange.
func (c *Client) Change(uri string, version int32, edits ...Edit) {
	c.t.Helper()
	var changes []map[string]any
	for _, e := range edits {
		changes = append(changes, map[string]any{"range": Range(e.StartLine, e.StartChar, e.EndLine, e.EndChar), "text": e.Text})
	}
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
}

// Range builds a protocol range.
func Range(sl, sc, el, ec int) map[string]any {
	return map[string]any{"start": Pos(sl, sc), "end": Pos(el, ec)}
}

// Pos builds a protocol position.
func Pos(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }

// Shutdown sends shutdown and exit and returns Serve's result.
func (c *Client) Shutdown() error {
	c.t.Helper()
	if m := c.Call("shutdown", nil); m.Error != nil {
		c.t.Fatalf("shutdown: %v", m.Error)
	}
	c.Notify("exit", nil)
	return c.Exited()
}

// Disconnect closes the client's end of the stream, as an editor that
// quits or crashes does, and returns Serve's result.
func (c *Client) Disconnect() error {
	c.t.Helper()
	c.in.Close()
	return c.Exited()
}

// Exited waits for the server to stop and returns Serve's result.
func (c *Client) Exited() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		c.done <- err // for Cleanup
		return err
	case <-time.After(Timeout):
		c.t.Fatalf("server did not exit")
	}
	return nil
}
