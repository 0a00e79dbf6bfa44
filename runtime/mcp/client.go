// Package mcp is a client of the Model Context Protocol: JSON-RPC 2.0 to
// a tool server, either a child process spoken to over newline-delimited
// stdin/stdout or an endpoint of the streamable HTTP transport.
//
// The package knows the protocol only. Starting the process and opening
// connections belong to the host (runtime/host), which checks the
// program's grants first: a Client is built from an *exec.Cmd the host
// prepared or an *http.Client whose requests the host checks. JSON-RPC
// itself (ids, pending calls, requests from the server) is
// github.com/sourcegraph/jsonrpc2, the library the language server uses.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// ProtocolVersion is the protocol revision the client asks for.
const ProtocolVersion = "2025-11-25"

// DefaultTimeout bounds one request when the caller's context does not.
const DefaultTimeout = 60 * time.Second

// MaxMessage bounds one message the server sends, in bytes; a longer line
// ends the connection.
const MaxMessage = 16 << 20

// MaxStderr is how much of a stdio server's standard error is kept (the
// start of it), to explain a server that died.
const MaxStderr = 16 << 10

// ClientInfo names this client in the initialize request.
var ClientInfo = map[string]string{"name": "harn", "version": "0.1.0"}

// RPCError is an error response from the server.
type RPCError struct {
	Code    int64
	Message string
}

func (e *RPCError) Error() string { return fmt.Sprintf("MCP error (%d): %s", e.Code, e.Message) }

// ErrClosed is returned by calls on a client after Close.
var ErrClosed = errors.New("MCP client is disconnected")

// transport sends one request (id set) or notification and returns the
// result of a request.
type transport interface {
	call(ctx context.Context, method string, params any) (json.RawMessage, error)
	notify(ctx context.Context, method string, params any) error
	close() error
}

// Client is a connection to one MCP server. Its methods are safe for
// concurrent use.
type Client struct {
	// Name names the server (the command, or the name it was given).
	Name string
	// Server is the result of initialize: protocolVersion, capabilities,
	// serverInfo.
	Server map[string]any

	mu sync.Mutex
	t  transport
}

// Call sends a request and returns its result. An error response is an
// *RPCError.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	t := c.transport()
	if t == nil {
		return nil, ErrClosed
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	if params == nil {
		params = map[string]any{}
	}
	res, err := t.call(ctx, method, params)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("MCP: server did not respond to '%s' in time", method)
	}
	return res, err
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	t := c.transport()
	if t == nil {
		return ErrClosed
	}
	if params == nil {
		params = map[string]any{}
	}
	return t.notify(ctx, method, params)
}

// Connected reports whether Close has not been called.
func (c *Client) Connected() bool { return c.transport() != nil }

// Close ends the connection: a stdio server is killed. Closing twice is
// harmless.
func (c *Client) Close() error {
	c.mu.Lock()
	t := c.t
	c.t = nil
	c.mu.Unlock()
	if t == nil {
		return nil
	}
	return t.close()
}

func (c *Client) transport() transport {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// initialize performs the handshake: initialize, then
// notifications/initialized.
func (c *Client) initialize(ctx context.Context) error {
	res, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": ProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      ClientInfo,
	})
	if err != nil {
		return err
	}
	var info map[string]any
	if len(res) > 0 && json.Unmarshal(res, &info) == nil {
		c.Server = info
	}
	return c.Notify(ctx, "notifications/initialized", nil)
}

// Stdio starts cmd (built by the host, which checked the exec grant; its
// context bounds the server's life) and connects to it over its standard
// input and output, then performs the handshake. The server's standard
// error is kept, up to MaxStderr bytes, for error messages.
func Stdio(ctx context.Context, name string, cmd *exec.Cmd, start func(*exec.Cmd) error) (*Client, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errBuf := &boundedBuffer{max: MaxStderr}
	cmd.Stderr = errBuf
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		return nil, fmt.Errorf("failed to spawn '%s': %v", name, err)
	}
	s := &stdioTransport{cmd: cmd, stderr: errBuf, waited: make(chan struct{})}
	stream := &lineStream{r: newLineReader(stdout, MaxMessage), w: stdin, closer: stdin}
	s.conn = jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(rejectServerRequest),
		jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	go func() {
		_ = cmd.Wait()
		close(s.waited)
	}()
	c := &Client{Name: name, t: s}
	if err := c.initialize(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// rejectServerRequest answers requests from the server (sampling,
// elicitation, roots): this client offers none of them.
func rejectServerRequest(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Method not found: " + req.Method}
}

type stdioTransport struct {
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	stderr *boundedBuffer
	waited chan struct{}
}

func (s *stdioTransport) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var res json.RawMessage
	err := s.conn.Call(ctx, method, params, &res)
	return res, s.explain(err)
}

func (s *stdioTransport) notify(ctx context.Context, method string, params any) error {
	return s.explain(s.conn.Notify(ctx, method, params))
}

// explain turns the library's errors into the protocol's: an error
// response keeps its code and message; a dead connection says what the
// server wrote to standard error.
func (s *stdioTransport) explain(err error) error {
	if err == nil {
		return nil
	}
	var rpc *jsonrpc2.Error
	if errors.As(err, &rpc) {
		return &RPCError{Code: rpc.Code, Message: rpc.Message}
	}
	if errors.Is(err, jsonrpc2.ErrClosed) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg := "MCP: server closed connection"
		select {
		case <-s.waited:
		case <-time.After(100 * time.Millisecond):
		}
		if tail := strings.TrimSpace(s.stderr.String()); tail != "" {
			msg += "; it wrote: " + tail
		}
		return errors.New(msg)
	}
	return err
}

func (s *stdioTransport) close() error {
	err := s.conn.Close()
	if s.cmd.Process != nil {
		if s.cmd.Cancel != nil {
			_ = s.cmd.Cancel()
		} else {
			_ = s.cmd.Process.Kill()
		}
	}
	<-s.waited
	return err
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - len(b.b)
	if room < len(p) {
		b.cut = true
		if room > 0 {
			b.b = append(b.b, p[:room]...)
		}
		return len(p), nil
	}
	b.b = append(b.b, p...)
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.ToValidUTF8(string(b.b), "\uFFFD")
	if b.cut {
		s += "…"
	}
	return s
}

// ToolError is a tools/call result the server flagged with isError; its
// message is the result's text.
type ToolError struct{ Text string }

func (e *ToolError) Error() string { return e.Text }

// Decode reads a result into plain Go values; numbers stay json.Number so
// integers are not turned into floats.
func Decode(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("MCP: malformed result: %v", err)
	}
	return x, nil
}

// CallTool calls a tool. A result flagged isError is a *ToolError. The
// value is the text when the result is one text item, nil when it has no
// content, else the list of content items.
func (c *Client) CallTool(ctx context.Context, name string, arguments map[string]any) (any, error) {
	if arguments == nil {
		arguments = map[string]any{}
	}
	raw, err := c.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": arguments})
	if err != nil {
		return nil, err
	}
	x, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	res, _ := x.(map[string]any)
	content, _ := res["content"].([]any)
	if isErr, _ := res["isError"].(bool); isErr {
		return nil, &ToolError{Text: contentText(res, content)}
	}
	if len(content) == 1 {
		if item, ok := content[0].(map[string]any); ok && item["type"] == "text" {
			if t, ok := item["text"].(string); ok {
				return t, nil
			}
		}
	}
	if len(content) == 0 {
		return nil, nil
	}
	return content, nil
}

// contentText joins the text items of a result; without any, the result
// as JSON.
func contentText(res map[string]any, content []any) string {
	var texts []string
	for _, it := range content {
		if item, ok := it.(map[string]any); ok && item["type"] == "text" {
			if t, ok := item["text"].(string); ok {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) > 0 {
		return strings.Join(texts, "\n")
	}
	b, _ := json.Marshal(res)
	return string(b)
}

// List calls a list method (tools/list, resources/list, ...) and returns
// the array under key.
func (c *Client) List(ctx context.Context, method, key string) ([]any, error) {
	raw, err := c.Call(ctx, method, nil)
	if err != nil {
		return nil, err
	}
	x, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	res, _ := x.(map[string]any)
	items, _ := res[key].([]any)
	return items, nil
}
