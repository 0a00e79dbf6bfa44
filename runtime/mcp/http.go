package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// HTTPOptions configure a client of the streamable HTTP transport.
type HTTPOptions struct {
	// AuthToken, when set, is sent as a bearer token.
	AuthToken string
	// ProtocolVersion overrides ProtocolVersion.
	ProtocolVersion string
}

// HTTP connects to an MCP endpoint over the streamable HTTP transport
// (one POST a message; the answer is JSON or an event stream) through
// client, which the host built and whose requests it checks against the
// network grant, then performs the handshake.
func HTTP(ctx context.Context, name, url string, client *http.Client, opts HTTPOptions) (*Client, error) {
	h := &httpTransport{client: client, url: url, token: opts.AuthToken, version: opts.ProtocolVersion}
	if h.version == "" {
		h.version = ProtocolVersion
	}
	c := &Client{Name: name, t: h}
	if err := c.initialize(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

type httpTransport struct {
	client *http.Client
	url    string
	token  string

	mu      sync.Mutex
	version string
	session string
	nextID  uint64
}

func (h *httpTransport) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	h.mu.Lock()
	h.nextID++
	id := h.nextID
	h.mu.Unlock()
	return h.send(ctx, method, params, &id, true)
}

func (h *httpTransport) notify(ctx context.Context, method string, params any) error {
	_, err := h.send(ctx, method, params, nil, true)
	return err
}

func (h *httpTransport) close() error { return nil }

// send posts one message. A 404 for a session the server forgot starts a
// new session and sends again, once.
func (h *httpTransport) send(ctx context.Context, method string, params any, id *uint64, retry bool) (json.RawMessage, error) {
	req := jsonrpc2.Request{Method: method, Notif: id == nil}
	if id != nil {
		req.ID = jsonrpc2.ID{Num: *id}
	}
	if err := req.SetParams(params); err != nil {
		return nil, err
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, "POST", h.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("MCP HTTP request error: %v", err)
	}
	h.mu.Lock()
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json, text/event-stream")
	hreq.Header.Set("MCP-Protocol-Version", h.version)
	if h.session != "" {
		hreq.Header.Set("MCP-Session-Id", h.session)
	}
	hadSession := h.session != ""
	h.mu.Unlock()
	if h.token != "" {
		hreq.Header.Set("Authorization", "Bearer "+h.token)
	}
	resp, err := h.client.Do(hreq)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxMessage+1))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("MCP HTTP read error: %v", err)
	}
	if len(data) > MaxMessage {
		return nil, fmt.Errorf("%w (%d bytes)", errLineTooLong, MaxMessage)
	}
	h.mu.Lock()
	if v := resp.Header.Get("MCP-Protocol-Version"); v != "" {
		h.version = v
	}
	if s := resp.Header.Get("MCP-Session-Id"); s != "" {
		h.session = s
	}
	h.mu.Unlock()
	switch {
	case resp.StatusCode == 404 && hadSession && method != "initialize" && retry:
		h.mu.Lock()
		h.session = ""
		h.mu.Unlock()
		c := &Client{t: h}
		if err := c.initialize(ctx); err != nil {
			return nil, err
		}
		return h.send(ctx, method, params, id, false)
	case resp.StatusCode == 401:
		return nil, errors.New("MCP authorization required")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if resp.StatusCode >= 400 {
			return nil, fmt.Errorf("MCP HTTP error: status %d", resp.StatusCode)
		}
		return nil, nil
	}
	msg, err := parseHTTPBody(data, resp.StatusCode)
	if err != nil {
		return nil, err
	}
	if msg.Error != nil {
		return nil, &RPCError{Code: msg.Error.Code, Message: msg.Error.Message}
	}
	if resp.StatusCode >= 400 {
		return nil, fmt.Errorf("MCP HTTP error: status %d", resp.StatusCode)
	}
	return msg.Result, nil
}

// httpMessage is the part of a JSON-RPC message the client reads.
type httpMessage struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Method string `json:"method"`
}

// parseHTTPBody reads a response body: one JSON message, or an event
// stream whose last JSON-RPC message is the answer.
func parseHTTPBody(data []byte, status int) (*httpMessage, error) {
	trimmed := strings.TrimSpace(string(data))
	if strings.HasPrefix(trimmed, "event:") || strings.HasPrefix(trimmed, "data:") {
		var events []string
		var cur []string
		for _, line := range strings.Split(strings.ReplaceAll(trimmed, "\r\n", "\n"), "\n") {
			if line == "" {
				if len(cur) > 0 {
					events = append(events, strings.Join(cur, "\n"))
					cur = nil
				}
				continue
			}
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				cur = append(cur, strings.TrimLeft(d, " "))
			}
		}
		if len(cur) > 0 {
			events = append(events, strings.Join(cur, "\n"))
		}
		for i := len(events) - 1; i >= 0; i-- {
			var m httpMessage
			if json.Unmarshal([]byte(events[i]), &m) == nil && (m.Result != nil || m.Error != nil || m.Method != "") {
				return &m, nil
			}
		}
		return nil, errors.New("MCP HTTP response parse error: no JSON-RPC message in the event stream")
	}
	var m httpMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("MCP HTTP response parse error (status %d): %v", status, err)
	}
	return &m, nil
}
