package harn

import (
	"strconv"
	"strings"
)

// Server-sent events on the server side: sse_event renders one frame
// (comment, id, event, retry, data lines); sse_server_response opens an
// in-memory event stream with limits on an event's size and on the
// events buffered, which sse_server_send/heartbeat fill, flush marks
// delivered, close/cancel/mock_disconnect end, and
// sse_server_mock_receive reads back as a client would.

func sseField(frame *strings.Builder, field, value string) {
	value = strings.ReplaceAll(strings.ReplaceAll(value, "\r\n", "\n"), "\r", "\n")
	if value == "" {
		frame.WriteString(field + ": \n")
		return
	}
	for line := range strings.SplitSeq(value, "\n") {
		frame.WriteString(field + ": " + line + "\n")
	}
}

func sseComment(frame *strings.Builder, comment string) {
	comment = strings.ReplaceAll(strings.ReplaceAll(comment, "\r\n", "\n"), "\r", "\n")
	if comment == "" {
		frame.WriteString(":\n")
		return
	}
	for line := range strings.SplitSeq(comment, "\n") {
		frame.WriteString(": " + line + "\n")
	}
}

// sseFrame renders event (a dict of fields, or any value as the data)
// with options supplying fields the event lacks.
func sseFrame(event Value, opts *Dict) (string, error) {
	var frame strings.Builder
	payload := false
	var d *Dict
	if event.k == KindDict {
		d = event.r.(*Dict)
	}
	get := func(keys ...string) (Value, bool) {
		for _, k := range keys {
			if d != nil {
				if v, ok := d.Get(k); ok {
					return v, true
				}
			}
		}
		return Nil, false
	}
	opt := func(keys ...string) (Value, bool) {
		for _, k := range keys {
			if v, ok := opts.Get(k); ok {
				return v, true
			}
		}
		return Nil, false
	}
	either := func(dictKeys, optKeys []string) (Value, bool) {
		if v, ok := get(dictKeys...); ok {
			return v, true
		}
		return opt(optKeys...)
	}
	single := func(field string, v Value) error {
		s := Display(v)
		if strings.ContainsAny(s, "\r\n") {
			return plainError("sse_event: " + field + " must not contain newlines")
		}
		frame.WriteString(field + ": " + s + "\n")
		return nil
	}
	if v, ok := either([]string{"comment"}, []string{"comment"}); ok {
		sseComment(&frame, Display(v))
	}
	if v, ok := either([]string{"id"}, []string{"id"}); ok {
		if err := single("id", v); err != nil {
			return "", err
		}
	}
	if v, ok := either([]string{"event", "name"}, []string{"event"}); ok {
		if err := single("event", v); err != nil {
			return "", err
		}
		payload = payload || d != nil
	}
	if v, ok := either([]string{"retry", "retry_ms"}, []string{"retry", "retry_ms"}); ok {
		if v.k != KindInt || v.AsInt() < 0 {
			return "", plainError("sse_event: retry/retry_ms must be a non-negative integer")
		}
		frame.WriteString("retry: " + strconv.FormatInt(v.AsInt(), 10) + "\n")
		payload = payload || d != nil
	}
	if d == nil {
		sseField(&frame, "data", Display(event))
		payload = true
	} else if v, ok := either([]string{"data"}, []string{"data"}); ok {
		sseField(&frame, "data", Display(v))
		payload = true
	} else if frame.Len() > 0 && !d.Has("comment") {
		sseField(&frame, "data", "")
		payload = true
	}
	out := frame.String()
	if out == "" || !payload && !strings.HasPrefix(out, ":") {
		var c strings.Builder
		c.WriteString(out)
		sseComment(&c, "")
		out = c.String()
	}
	return out + "\n", nil
}

func sseServerArg(c *Call, args []Value, fn string) (*sseServer, string, error) {
	id, err := handleArg(args, fn, "stream handle")
	if err != nil {
		return nil, "", err
	}
	t := transportOf(c)
	s, ok := t.servers[id]
	if !ok {
		return nil, "", transportErr("%s: unknown stream '%s'", fn, id)
	}
	return s, id, nil
}

// sseServerEvent reads a buffered frame back as a client event.
func sseServerEvent(frame string) Value {
	e := mockEvent{event: "message"}
	var data, comments []string
	for raw := range strings.SplitSeq(strings.TrimSuffix(frame, "\n"), "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		if raw == "" {
			continue
		}
		if c, ok := strings.CutPrefix(raw, ":"); ok {
			comments = append(comments, strings.TrimPrefix(c, " "))
			continue
		}
		field, value, _ := strings.Cut(raw, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			e.event = value
		case "data":
			data = append(data, value)
		case "id":
			if value != "" {
				v := value
				e.id = &v
			} else {
				e.id = nil
			}
		case "retry":
			if n, err := strconv.ParseInt(value, 10, 64); err == nil {
				e.retryMs = &n
			} else {
				e.retryMs = nil
			}
		}
	}
	e.data = strings.Join(data, "\n")
	var v Value
	if len(comments) == 0 || len(data) > 0 {
		v = e.value()
	} else {
		d := NewDict(2)
		d.Set("type", Str("comment"))
		d.Set("comment", Str(strings.Join(comments, "\n")))
		v = DictValue(d)
	}
	v.r.(*Dict).Set("raw", Str(frame))
	return v
}

func (s *sseServer) push(fn, frame string) (Value, error) {
	if s.closed || s.cancelled || s.disconnected {
		return Bool(false), nil
	}
	if int64(len(frame)) > s.maxEventBytes {
		return Nil, transportErr("%s: event exceeded max_event_bytes (%d)", fn, s.maxEventBytes)
	}
	if int64(len(s.frames)) >= s.maxBuffered {
		return Nil, transportErr("%s: buffered events exceeded max_buffered_events (%d)", fn, s.maxBuffered)
	}
	s.frames = append(s.frames, frame)
	s.sent++
	return Bool(true), nil
}

func (s *sseServer) statusValue(id string) Value {
	d := NewDict(12)
	d.Set("id", Str(id))
	d.Set("status", Int(s.status))
	d.Set("headers", DictValue(s.headers.clone()))
	d.Set("buffered_events", Int(int64(len(s.frames))))
	d.Set("sent_events", Int(s.sent))
	d.Set("flushed_events", Int(s.flushed))
	d.Set("closed", Bool(s.closed))
	d.Set("disconnected", Bool(s.disconnected))
	d.Set("cancelled", Bool(s.cancelled))
	d.Set("cancel_reason", Nil)
	if s.cancelReason != nil {
		d.Set("cancel_reason", Str(*s.cancelReason))
	}
	d.Set("max_event_bytes", Int(s.maxEventBytes))
	d.Set("max_buffered_events", Int(s.maxBuffered))
	return DictValue(d)
}

func installSSEServer(lib *Library) {
	lib.Builtin("sse_event", func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, transportErr("sse_event: requires event data or an event dict")
		}
		f, err := sseFrame(args[0], optsArg(args, 1))
		return Str(f), err
	})
	lib.Builtin("sse_server_response", func(c *Call, args []Value) (Value, error) {
		o := optsArg(args, 0)
		status := int64(200)
		if v, ok := o.Get("status"); ok && v.k == KindInt {
			status = max(100, min(599, v.AsInt()))
		}
		headers := NewDict(4)
		headers.Set("content-type", Str("text/event-stream; charset=utf-8"))
		headers.Set("cache-control", Str("no-cache"))
		headers.Set("connection", Str("keep-alive"))
		headers.Set("x-accel-buffering", Str("no"))
		if hv, ok := o.Get("headers"); ok && hv.k == KindDict {
			hd := hv.r.(*Dict)
			for _, name := range hd.Keys() {
				for _, k := range headers.Keys() {
					if strings.EqualFold(k, name) {
						headers.Delete(k)
					}
				}
				v, _ := hd.Get(name)
				headers.Set(name, Str(Display(v)))
			}
		}
		s := &sseServer{status: status, headers: headers,
			maxEventBytes: max(limitOpt(o, "max_event_bytes", transportMaxMessageBytes), 1),
			maxBuffered:   max(limitOpt(o, "max_buffered_events", transportMaxEvents), 1)}
		t := transportOf(c)
		t.mu.Lock()
		defer t.mu.Unlock()
		if len(t.servers) >= transportMaxHandles {
			return Nil, transportErr("sse_server_response: maximum open streams (%d) reached", transportMaxHandles)
		}
		id := t.handle("sse-server")
		t.servers[id] = s
		d := NewDict(8)
		d.Set("id", Str(id))
		d.Set("type", Str("sse_response"))
		d.Set("status", Int(status))
		d.Set("headers", DictValue(headers.clone()))
		d.Set("body", Nil)
		d.Set("streaming", Bool(true))
		d.Set("max_event_bytes", Int(s.maxEventBytes))
		d.Set("max_buffered_events", Int(s.maxBuffered))
		return DictValue(d), nil
	})
	with := func(name string, fn func(c *Call, s *sseServer, id string, args []Value) (Value, error)) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			t := transportOf(c)
			t.mu.Lock()
			defer t.mu.Unlock()
			s, id, err := sseServerArg(c, args, name)
			if err != nil {
				return Nil, err
			}
			return fn(c, s, id, args)
		})
	}
	with("sse_server_send", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, transportErr("sse_server_send: requires stream and event")
		}
		frame, err := sseFrame(args[1], optsArg(args, 2))
		if err != nil {
			return Nil, err
		}
		return s.push("sse_server_send", frame)
	})
	with("sse_server_heartbeat", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		comment := "heartbeat"
		if len(args) > 1 {
			comment = Display(args[1])
		}
		var f strings.Builder
		sseComment(&f, comment)
		return s.push("sse_server_heartbeat", f.String()+"\n")
	})
	with("sse_server_flush", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if s.disconnected || s.cancelled {
			return Bool(false), nil
		}
		s.flushed = s.sent
		return Bool(!s.closed), nil
	})
	with("sse_server_close", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if s.closed {
			return Bool(false), nil
		}
		s.closed = true
		return Bool(true), nil
	})
	with("sse_server_cancel", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if s.cancelled {
			return Bool(false), nil
		}
		s.cancelled, s.closed = true, true
		if r := Arg(args, 1); r.k != KindNil && Display(r) != "" {
			reason := Display(r)
			s.cancelReason = &reason
		}
		return Bool(true), nil
	})
	with("sse_server_status", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		return s.statusValue(id), nil
	})
	with("sse_server_disconnected", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		return Bool(s.disconnected), nil
	})
	with("sse_server_cancelled", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		return Bool(s.cancelled), nil
	})
	with("sse_server_mock_receive", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if len(s.frames) > 0 {
			f := s.frames[0]
			s.frames = s.frames[1:]
			return sseServerEvent(f), nil
		}
		if s.closed || s.cancelled || s.disconnected {
			d := NewDict(2)
			d.Set("type", Str("close"))
			d.Set("server_closed", Bool(true))
			return DictValue(d), nil
		}
		return typedEvent("timeout"), nil
	})
	with("sse_server_mock_disconnect", func(c *Call, s *sseServer, id string, args []Value) (Value, error) {
		if s.disconnected {
			return Bool(false), nil
		}
		s.disconnected, s.closed = true, true
		return Bool(true), nil
	})
}
