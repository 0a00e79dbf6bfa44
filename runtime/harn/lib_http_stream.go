package harn

import (
	"fmt"
	"strings"
	"sync"
)

// Streamed HTTP bodies and downloads over the one request path (doHTTP:
// mocks first, then the network under --allow-net). http_stream_open
// returns a handle ("http-stream-N") whose body http_stream_read hands
// out in chunks of at most max_bytes (nil once drained);
// http_download writes the body to a file through the host and reports
// {status, headers, ok, bytes_written}. The body is read whole when the
// stream opens.

type httpStream struct {
	status  int64
	headers Value
	pending []byte
	closed  bool
}

type httpStreams struct {
	mu      sync.Mutex
	next    int
	streams map[string]*httpStream
}

// maxHTTPStreams caps the streams open at once, as upstream does.
const maxHTTPStreams = 64

func httpStreamsOf(c *Call) *httpStreams {
	return c.th.in.State("http_streams", func() any { return &httpStreams{streams: map[string]*httpStream{}} }).(*httpStreams)
}

// httpOptions splits the method out of an options dict (GET by default).
func httpOptions(v Value) (string, Value) {
	method := "GET"
	if v.k == KindDict {
		if m, ok := v.r.(*Dict).Get("method"); ok && Display(m) != "" && m.k != KindNil {
			method = strings.ToUpper(Display(m))
		}
	}
	return method, v
}

func installHttpStream(lib *Library) {
	lib.Builtin("http_stream_open", func(c *Call, args []Value) (Value, error) {
		url := Display(Arg(args, 0))
		if url == "" || Arg(args, 0).k == KindNil {
			return Nil, plainError("http_stream_open: URL is required")
		}
		method, opts := httpOptions(Arg(args, 1))
		resp, err := doHTTP(c, method, url, opts)
		if err != nil {
			return Nil, err
		}
		d := resp.r.(*Dict)
		status, _ := d.Get("status")
		headers, _ := d.Get("headers")
		body, _ := d.Get("body")
		hs := httpStreamsOf(c)
		hs.mu.Lock()
		defer hs.mu.Unlock()
		if len(hs.streams) >= maxHTTPStreams {
			return Nil, plainError(fmt.Sprintf("http_stream_open: maximum open streams (%d) reached", maxHTTPStreams))
		}
		hs.next++
		id := fmt.Sprintf("http-stream-%d", hs.next)
		hs.streams[id] = &httpStream{status: status.AsInt(), headers: headers, pending: append([]byte(nil), BytesOf(body)...)}
		return Str(id), nil
	})
	stream := func(c *Call, args []Value, fn string) (*httpStream, error) {
		if len(args) == 0 {
			return nil, plainError(fn + ": requires a stream handle")
		}
		hs := httpStreamsOf(c)
		hs.mu.Lock()
		defer hs.mu.Unlock()
		s, ok := hs.streams[Display(args[0])]
		if !ok {
			return nil, plainError(fmt.Sprintf("%s: unknown stream '%s'", fn, Display(args[0])))
		}
		return s, nil
	}
	lib.Builtin("http_stream_read", func(c *Call, args []Value) (Value, error) {
		s, err := stream(c, args, "http_stream_read")
		if err != nil {
			return Nil, err
		}
		limit := int64(1 << 20)
		if v := Arg(args, 1); v.k == KindInt {
			limit = v.AsInt()
		}
		limit = max(limit, 1)
		hs := httpStreamsOf(c)
		hs.mu.Lock()
		defer hs.mu.Unlock()
		if s.closed || len(s.pending) == 0 {
			s.closed = true
			return Nil, nil
		}
		n := min(int64(len(s.pending)), limit)
		chunk := s.pending[:n:n]
		s.pending = s.pending[n:]
		return BytesValue(chunk), nil
	})
	lib.Builtin("http_stream_info", func(c *Call, args []Value) (Value, error) {
		s, err := stream(c, args, "http_stream_info")
		if err != nil {
			return Nil, err
		}
		d := NewDict(3)
		d.Set("status", Int(s.status))
		d.Set("headers", s.headers)
		d.Set("ok", Bool(s.status >= 200 && s.status < 300))
		return DictValue(d), nil
	})
	lib.Builtin("http_stream_close", func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, plainError("http_stream_close: requires a stream handle")
		}
		hs := httpStreamsOf(c)
		hs.mu.Lock()
		defer hs.mu.Unlock()
		id := Display(args[0])
		_, ok := hs.streams[id]
		delete(hs.streams, id)
		return Bool(ok), nil
	})
	lib.Builtin("http_download", func(c *Call, args []Value) (Value, error) {
		url, dst := Display(Arg(args, 0)), Display(Arg(args, 1))
		if url == "" || Arg(args, 0).k == KindNil {
			return Nil, plainError("http_download: URL is required")
		}
		if dst == "" || Arg(args, 1).k == KindNil {
			return Nil, plainError("http_download: destination path is required")
		}
		method, opts := httpOptions(Arg(args, 2))
		resp, err := doHTTP(c, method, url, opts)
		if err != nil {
			return Nil, err
		}
		d := resp.r.(*Dict)
		status, _ := d.Get("status")
		headers, _ := d.Get("headers")
		body, _ := d.Get("body")
		data := BytesOf(body)
		var werr error
		c.Block(func() { werr = c.th.in.host.WriteFile(dst, data) })
		if werr != nil {
			return Nil, ioError("http_download: failed to write "+c.th.in.host.Abs(dst), werr)
		}
		out := NewDict(4)
		out.Set("status", status)
		out.Set("headers", headers)
		out.Set("bytes_written", Int(int64(len(data))))
		out.Set("ok", Bool(status.AsInt() >= 200 && status.AsInt() < 300))
		return DictValue(out), nil
	})
}
