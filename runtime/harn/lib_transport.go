package harn

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The transport family: HTTP sessions, server-sent events and
// WebSockets. Clients connect to mocks (sse_mock, websocket_mock, matched
// by URL glob) and record what they did in transport_mock_calls; a URL
// without a mock needs the network, which this runtime reaches only for
// plain HTTP (a real SSE stream or WebSocket is refused with an error
// saying so). sse_event renders one event frame, and the sse_server_*
// builtins keep a server-side event stream in memory, with size and
// buffer limits, for handlers and their tests.

const (
	transportMaxMessageBytes = 1 << 20
	transportMaxEvents       = 10_000
	transportMaxHandles      = 64
)

type mockEvent struct {
	event, data string
	id          *string
	retryMs     *int64
}

type wsMessage struct {
	typ    string
	data   []byte
	code   *int64
	reason *string
}

type sseClient struct {
	url              string
	events           []mockEvent
	opened, closed   bool
	maxEvents, count int64
	maxBytes         int64
}

type wsClient struct {
	url                string
	messages           []wsMessage
	echo, closed       bool
	maxMessages, count int64
	maxBytes           int64
}

type sseServer struct {
	status                     int64
	headers                    *Dict
	frames                     []string
	maxEventBytes, maxBuffered int64
	sent, flushed              int64
	closed, disconnected       bool
	cancelled                  bool
	cancelReason               *string
}

type transportState struct {
	mu       sync.Mutex
	next     int
	sseMocks []struct {
		pattern string
		events  []mockEvent
	}
	wsMocks []struct {
		pattern  string
		messages []wsMessage
		echo     bool
	}
	sse      map[string]*sseClient
	ws       map[string]*wsClient
	servers  map[string]*sseServer
	sessions map[string]Value
	calls    []Value
}

func transportOf(c *Call) *transportState {
	return c.th.in.State("transport", func() any {
		return &transportState{sse: map[string]*sseClient{}, ws: map[string]*wsClient{},
			servers: map[string]*sseServer{}, sessions: map[string]Value{}}
	}).(*transportState)
}

// handle numbers a new transport handle ("sse-3"); the caller holds mu.
func (t *transportState) handle(prefix string) string {
	t.next++
	return prefix + "-" + strconv.Itoa(t.next)
}

func (t *transportState) record(kind, handle, url string, typ, data *string) {
	d := NewDict(5)
	d.Set("kind", Str(kind))
	d.Set("url", Str(url))
	d.Set("handle", Str(handle))
	d.Set("type", Nil)
	if typ != nil {
		d.Set("type", Str(*typ))
	}
	d.Set("data", Nil)
	if data != nil {
		d.Set("data", Str(*data))
	}
	t.calls = append(t.calls, DictValue(d))
}

func transportErr(format string, a ...any) error { return plainError(fmt.Sprintf(format, a...)) }

// handleArg is a handle string, or a dict's id.
func handleArg(args []Value, fn, what string) (string, error) {
	if len(args) == 0 {
		return "", transportErr("%s: requires a %s", fn, what)
	}
	switch v := args[0]; v.k {
	case KindString:
		return v.r.(string), nil
	case KindDict:
		if id, ok := v.r.(*Dict).Get("id"); ok && Display(id) != "" && id.k != KindNil {
			return Display(id), nil
		}
		return "", transportErr("%s: handle dict must contain id", fn)
	}
	return "", transportErr("%s: first argument must be a handle string or dict", fn)
}

func optsArg(args []Value, i int) *Dict {
	if v := Arg(args, i); v.k == KindDict {
		return v.r.(*Dict)
	}
	return NewDict(0)
}

func limitOpt(o *Dict, key string, def int64) int64 {
	if v, ok := o.Get(key); ok && v.k == KindInt {
		return max(v.AsInt(), 0)
	}
	return def
}

func parseMockEvent(v Value) mockEvent {
	if v.k != KindDict {
		return mockEvent{event: "message", data: Display(v)}
	}
	d := v.r.(*Dict)
	e := mockEvent{event: "message"}
	for _, k := range []string{"event", "type"} {
		if x, ok := d.Get(k); ok {
			if s := Display(x); s != "" {
				e.event = s
			}
			break
		}
	}
	if x, ok := d.Get("data"); ok {
		e.data = Display(x)
	}
	if x, ok := d.Get("id"); ok && Display(x) != "" {
		s := Display(x)
		e.id = &s
	}
	if x, ok := d.Get("retry_ms"); ok && x.k == KindInt {
		n := x.AsInt()
		e.retryMs = &n
	}
	return e
}

func parseMockEvents(v Value) []mockEvent {
	var items []Value
	switch v.k {
	case KindNil:
		return nil
	case KindDict:
		if ev, ok := v.r.(*Dict).Get("events"); ok && ev.k == KindList {
			items = ev.r.(*List).items
		}
	case KindList:
		items = v.r.(*List).items
	default:
		items = []Value{v}
	}
	out := make([]mockEvent, len(items))
	for i, it := range items {
		out[i] = parseMockEvent(it)
	}
	return out
}

func (e mockEvent) value() Value {
	d := NewDict(5)
	d.Set("type", Str("event"))
	d.Set("event", Str(e.event))
	d.Set("data", Str(e.data))
	d.Set("id", Nil)
	if e.id != nil {
		d.Set("id", Str(*e.id))
	}
	d.Set("retry_ms", Nil)
	if e.retryMs != nil {
		d.Set("retry_ms", Int(*e.retryMs))
	}
	return DictValue(d)
}

func typedEvent(typ string) Value {
	d := NewDict(1)
	d.Set("type", Str(typ))
	return DictValue(d)
}

func parseWSMessage(v Value) wsMessage {
	switch v.k {
	case KindBytes:
		return wsMessage{typ: "binary", data: append([]byte(nil), v.r.([]byte)...)}
	case KindDict:
		d := v.r.(*Dict)
		m := wsMessage{typ: "text"}
		if t, ok := d.Get("type"); ok && Display(t) != "" {
			m.typ = Display(t)
		}
		data, _ := d.Get("data")
		if b, ok := d.Get("base64"); ok && b.k == KindBool && b.AsBool() {
			m.data, _ = base64.StdEncoding.DecodeString(Display(data))
		} else if data.k != KindNil {
			m.data = []byte(Display(data))
		}
		if code, ok := d.Get("code"); ok && code.k == KindInt {
			n := code.AsInt()
			m.code = &n
		}
		if r, ok := d.Get("reason"); ok {
			s := Display(r)
			m.reason = &s
		}
		return m
	}
	return wsMessage{typ: "text", data: []byte(Display(v))}
}

func (m wsMessage) dataText() string {
	if m.typ == "text" {
		return strings.ToValidUTF8(string(m.data), "\uFFFD")
	}
	return base64.StdEncoding.EncodeToString(m.data)
}

func (m wsMessage) value() Value {
	d := NewDict(3)
	d.Set("type", Str(m.typ))
	switch m.typ {
	case "close":
		if m.code != nil {
			d.Set("code", Int(*m.code))
		}
		if m.reason != nil {
			d.Set("reason", Str(*m.reason))
		}
	case "text":
		d.Set("data", Str(m.dataText()))
	default:
		d.Set("data_base64", Str(m.dataText()))
	}
	return DictValue(d)
}

func installTransport(lib *Library) {
	lib.Builtin("sse_mock", func(c *Call, args []Value) (Value, error) {
		pattern := Display(Arg(args, 0))
		if pattern == "" || Arg(args, 0).k == KindNil {
			return Nil, transportErr("sse_mock: URL pattern is required")
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.sseMocks = append(t.sseMocks, struct {
			pattern string
			events  []mockEvent
		}{pattern, parseMockEvents(Arg(args, 1))})
		return Nil, nil
	})
	lib.Builtin("sse_connect", func(c *Call, args []Value) (Value, error) {
		url := Display(Arg(args, 1))
		if url == "" || Arg(args, 1).k == KindNil {
			return Nil, transportErr("sse_connect: URL is required")
		}
		o := optsArg(args, 2)
		t := transportOf(c)
		t.mu.Lock()
		for _, m := range t.sseMocks {
			if globMatches(m.pattern, url) {
				defer t.mu.Unlock()
				if len(t.sse) >= transportMaxHandles {
					return Nil, transportErr("sse_connect: maximum open streams (%d) reached", transportMaxHandles)
				}
				id := t.handle("sse")
				t.sse[id] = &sseClient{url: url, events: append([]mockEvent(nil), m.events...),
					maxEvents: max(limitOpt(o, "max_events", transportMaxEvents), 1),
					maxBytes:  max(limitOpt(o, "max_message_bytes", transportMaxMessageBytes), 1)}
				t.record("sse_connect", id, url, nil, nil)
				return Str(id), nil
			}
		}
		t.mu.Unlock()
		return Nil, realTransport(c, "sse_connect", url, "http://", "https://")
	})
	lib.Builtin("sse_receive", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "sse_receive", "stream handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		s, ok := t.sse[id]
		if !ok {
			return Nil, transportErr("sse_receive: unknown stream '%s'", id)
		}
		if s.count >= s.maxEvents {
			return Nil, transportErr("sse_receive: stream '%s' exceeded max_events", id)
		}
		s.count++
		switch {
		case s.closed:
			return Nil, nil
		case !s.opened:
			s.opened = true
			return typedEvent("open"), nil
		case len(s.events) == 0:
			s.closed = true
			return Nil, nil
		}
		e := s.events[0]
		s.events = s.events[1:]
		if int64(len(e.data)) > s.maxBytes {
			return Nil, transportErr("sse_receive: message exceeded max_message_bytes (%d)", s.maxBytes)
		}
		return e.value(), nil
	})
	lib.Builtin("sse_close", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "sse_close", "stream handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		_, ok := t.sse[id]
		delete(t.sse, id)
		return Bool(ok), nil
	})
	lib.Builtin("websocket_mock", func(c *Call, args []Value) (Value, error) {
		pattern := Display(Arg(args, 0))
		if pattern == "" || Arg(args, 0).k == KindNil {
			return Nil, transportErr("websocket_mock: URL pattern is required")
		}
		var items []Value
		echo := false
		switch v := Arg(args, 1); v.k {
		case KindNil:
		case KindDict:
			if e, ok := v.r.(*Dict).Get("echo"); ok && e.k == KindBool {
				echo = e.AsBool()
			}
			if m, ok := v.r.(*Dict).Get("messages"); ok && m.k == KindList {
				items = m.r.(*List).items
			}
		case KindList:
			items = v.r.(*List).items
		default:
			items = []Value{v}
		}
		msgs := make([]wsMessage, len(items))
		for i, it := range items {
			msgs[i] = parseWSMessage(it)
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.wsMocks = append(t.wsMocks, struct {
			pattern  string
			messages []wsMessage
			echo     bool
		}{pattern, msgs, echo})
		return Nil, nil
	})
	lib.Builtin("websocket_connect", func(c *Call, args []Value) (Value, error) {
		url := Display(Arg(args, 0))
		o := optsArg(args, 1)
		t := transportOf(c)
		t.mu.Lock()
		for _, m := range t.wsMocks {
			if globMatches(m.pattern, url) {
				defer t.mu.Unlock()
				if len(t.ws) >= transportMaxHandles {
					return Nil, transportErr("websocket_connect: maximum open sockets (%d) reached", transportMaxHandles)
				}
				id := t.handle("websocket")
				t.ws[id] = &wsClient{url: url, messages: append([]wsMessage(nil), m.messages...), echo: m.echo,
					maxMessages: max(limitOpt(o, "max_messages", transportMaxEvents), 1),
					maxBytes:    max(limitOpt(o, "max_message_bytes", transportMaxMessageBytes), 1)}
				t.record("websocket_connect", id, url, nil, nil)
				return Str(id), nil
			}
		}
		t.mu.Unlock()
		return Nil, realTransport(c, "websocket_connect", url, "ws://", "wss://")
	})
	lib.Builtin("websocket_send", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "websocket_send", "socket handle")
		if err != nil {
			return Nil, err
		}
		msg := parseWSMessage(Arg(args, 1))
		if o := optsArg(args, 2); o.Len() > 0 {
			if typ, ok := o.Get("type"); ok && Display(typ) != "" {
				msg.typ = Display(typ)
			}
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		s, ok := t.ws[id]
		if !ok {
			return Nil, transportErr("websocket_send: unknown socket '%s'", id)
		}
		if int64(len(msg.data)) > s.maxBytes {
			return Nil, transportErr("websocket_send: message exceeded max_message_bytes (%d)", s.maxBytes)
		}
		if s.closed {
			return Bool(false), nil
		}
		if msg.typ == "close" {
			s.closed = true
		} else if s.echo {
			s.messages = append(s.messages, msg)
		}
		data := msg.dataText()
		t.record("websocket_send", id, s.url, &msg.typ, &data)
		return Bool(true), nil
	})
	lib.Builtin("websocket_receive", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "websocket_receive", "socket handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		s, ok := t.ws[id]
		if !ok {
			return Nil, transportErr("websocket_receive: unknown socket '%s'", id)
		}
		if s.count >= s.maxMessages {
			return Nil, transportErr("websocket_receive: socket '%s' exceeded max_messages", id)
		}
		s.count++
		if s.closed {
			return Nil, nil
		}
		if len(s.messages) == 0 {
			return typedEvent("timeout"), nil
		}
		m := s.messages[0]
		s.messages = s.messages[1:]
		if int64(len(m.data)) > s.maxBytes {
			s.closed = true
			return Nil, transportErr("websocket_receive: message exceeded max_message_bytes (%d)", s.maxBytes)
		}
		if m.typ == "close" {
			s.closed = true
		}
		return m.value(), nil
	})
	lib.Builtin("websocket_close", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "websocket_close", "socket handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		s, ok := t.ws[id]
		if !ok {
			return Bool(false), nil
		}
		delete(t.ws, id)
		s.closed = true
		t.record("websocket_close", id, s.url, nil, nil)
		return Bool(true), nil
	})
	lib.Builtin("transport_mock_clear", func(c *Call, args []Value) (Value, error) {
		t := transportOf(c)
		t.mu.Lock()
		t.sseMocks, t.wsMocks, t.calls = nil, nil, nil
		t.sse, t.ws = map[string]*sseClient{}, map[string]*wsClient{}
		t.mu.Unlock()
		hs := httpStreamsOf(c)
		hs.mu.Lock()
		hs.streams = map[string]*httpStream{}
		hs.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("transport_mock_calls", func(c *Call, args []Value) (Value, error) {
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		return NewListValue(append([]Value(nil), t.calls...)), nil
	})
	lib.Builtin("http_session", func(c *Call, args []Value) (Value, error) {
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		if len(t.sessions) >= transportMaxHandles {
			return Nil, transportErr("http_session: maximum open sessions (%d) reached", transportMaxHandles)
		}
		id := t.handle("http-session")
		t.sessions[id] = DictValue(optsArg(args, 0))
		return Str(id), nil
	})
	lib.Builtin("http_session_request", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "http_session_request", "session handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		base, ok := t.sessions[id]
		t.mu.Unlock()
		if !ok {
			return Nil, transportErr("http_session_request: unknown HTTP session '%s'", id)
		}
		// The request's options override the session's.
		merged := base.r.(*Dict).clone()
		o := optsArg(args, 3)
		for _, k := range o.Keys() {
			v, _ := o.Get(k)
			merged.Set(k, v)
		}
		return doHTTP(c, Display(Arg(args, 1)), Display(Arg(args, 2)), DictValue(merged))
	})
	lib.Builtin("http_session_close", func(c *Call, args []Value) (Value, error) {
		id, err := handleArg(args, "http_session_close", "session handle")
		if err != nil {
			return Nil, err
		}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		_, ok := t.sessions[id]
		delete(t.sessions, id)
		return Bool(ok), nil
	})
	installSSEServer(lib)
}

// realTransport is what connecting an unmocked URL does: a bad scheme is
// an error, a URL the egress policy refuses is EgressBlocked, and
// otherwise streaming transports need a network implementation this
// runtime does not have.
func realTransport(c *Call, fn, url string, schemes ...string) error {
	okScheme := false
	for _, s := range schemes {
		okScheme = okScheme || strings.HasPrefix(url, s)
	}
	if !okScheme {
		return transportErr("%s: URL must start with %s or %s, got '%s'", fn, schemes[0], schemes[1], url)
	}
	if err := enforceEgress(c, fn, url); err != nil {
		return err
	}
	if err := c.th.in.host.CheckNet(hostPort(url)); err != nil {
		return ioError(fn, err)
	}
	return plainError("not available in this runtime: " + fn + " to a real server (only mocked streams: sse_mock, websocket_mock)")
}
