package harn

import (
	"bytes"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// HTTP builtins. A request matching an http_mock is answered by the mock
// and never leaves the process; any other request goes through the host,
// which denies it without --allow-net.

type httpMock struct {
	method, pattern string
	responses       []httpMockResponse
	next            int
}

type httpMockResponse struct {
	status  int64
	body    string
	headers *Dict
}

type httpMockCall struct {
	method, url string
	headers     *Dict
	body        Value
}

type httpState struct {
	mu    sync.Mutex
	mocks []*httpMock
	calls []httpMockCall
}

func httpOf(c *Call) *httpState {
	return c.Interp().State("http", func() any { return &httpState{} }).(*httpState)
}

// globMatches matches text against a pattern whose `*` stand for any
// run of characters; without `*` the pattern must equal the text.
func globMatches(pattern, text string) bool {
	if pattern == "*" {
		return true
	}
	if !strings.Contains(pattern, "*") {
		return pattern == text
	}
	parts := strings.Split(pattern, "*")
	rest := text
	for i, p := range parts {
		if p == "" {
			continue
		}
		switch {
		case i == 0:
			if !strings.HasPrefix(rest, p) {
				return false
			}
			rest = rest[len(p):]
		case i == len(parts)-1:
			return strings.HasSuffix(rest, p)
		default:
			j := strings.Index(rest, p)
			if j < 0 {
				return false
			}
			rest = rest[j+len(p):]
		}
	}
	return true
}

var sensitiveHeaders = map[string]bool{"authorization": true, "proxy-authorization": true, "cookie": true,
	"set-cookie": true, "x-api-key": true, "api-key": true, "x-auth-token": true}

func parseMockResponse(d *Dict) httpMockResponse {
	r := httpMockResponse{status: 200, headers: NewDict(0)}
	if s, ok := d.Get("status"); ok && s.k == KindInt {
		r.status = int64(s.n)
	}
	if b, ok := d.Get("body"); ok {
		if b.k == KindString {
			r.body = b.r.(string)
		} else {
			r.body = Display(b)
		}
	}
	if h, ok := d.Get("headers"); ok && h.k == KindDict {
		r.headers = h.r.(*Dict)
	}
	return r
}

func httpResponse(status int64, headers *Dict, body string) Value {
	d := NewDict(4)
	d.Set("status", Int(status))
	d.Set("headers", DictValue(headers))
	d.Set("body", Str(body))
	d.Set("ok", Bool(status >= 200 && status < 300))
	return DictValue(d)
}

// doHTTP performs one request: mocked, or through the host's client.
func doHTTP(c *Call, method, url string, opts Value) (Value, error) {
	headers := NewDict(0)
	var body Value
	timeout := 30 * time.Second
	if opts.k == KindDict {
		o := opts.r.(*Dict)
		if h, ok := o.Get("headers"); ok && h.k == KindDict {
			for k, v := range h.r.(*Dict).m {
				headers.Set(k, v)
			}
		}
		if b, ok := o.Get("body"); ok {
			body = b
		}
		if t, ok := o.Get("timeout"); ok {
			if ms, ok := durationMillis(t); ok && ms > 0 {
				timeout = time.Duration(ms) * time.Millisecond
			}
		} else if t, ok := o.Get("timeout_ms"); ok && t.k == KindInt {
			timeout = time.Duration(int64(t.n)) * time.Millisecond
		}
	}
	bodyText := ""
	if body.k != KindNil {
		if body.k == KindString {
			bodyText = body.r.(string)
		} else {
			var b strings.Builder
			writeJSON(&b, body, 0)
			bodyText = b.String()
			if !headers.Has("content-type") && !headers.Has("Content-Type") {
				headers.Set("content-type", Str("application/json"))
			}
		}
	}
	st := httpOf(c)
	st.mu.Lock()
	for _, m := range st.mocks {
		if (m.method == "*" || strings.EqualFold(m.method, method)) && globMatches(m.pattern, url) {
			r := m.responses[min(m.next, len(m.responses)-1)]
			if m.next < len(m.responses)-1 {
				m.next++
			}
			call := httpMockCall{method: method, url: url, headers: headers}
			if body.k != KindNil {
				call.body = Str(bodyText)
			}
			st.calls = append(st.calls, call)
			st.mu.Unlock()
			return httpResponse(r.status, r.headers, r.body), nil
		}
	}
	st.mu.Unlock()
	req, err := http.NewRequestWithContext(c.Context(), strings.ToUpper(method), url, bytes.NewReader([]byte(bodyText)))
	if err != nil {
		return Nil, throwValue(Str(c.Name + ": " + err.Error()))
	}
	for k, v := range headers.m {
		req.Header.Set(k, Display(v))
	}
	var resp *http.Response
	var respBody []byte
	c.Block(func() {
		resp, err = c.Interp().host.HTTPClient(timeout).Do(req)
		if err == nil {
			respBody, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
			resp.Body.Close()
		}
	})
	if err != nil {
		return Nil, ioError(c.Name+" "+url, err)
	}
	rh := NewDict(len(resp.Header))
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rh.Set(strings.ToLower(k), Str(strings.Join(resp.Header[k], ", ")))
	}
	return httpResponse(int64(resp.StatusCode), rh, string(respBody)), nil
}

func init() {
	Register("http_get", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, "GET", Display(arg(args, 0)), arg(args, 1))
	})
	bodyMethod := func(name, method string) {
		Register(name, func(c *Call, args []Value) (Value, error) {
			opts := NewDict(2)
			if o := arg(args, 2); o.k == KindDict {
				for k, v := range o.r.(*Dict).m {
					opts.Set(k, v)
				}
			}
			opts.Set("body", arg(args, 1))
			return doHTTP(c, method, Display(arg(args, 0)), DictValue(opts))
		})
	}
	bodyMethod("http_post", "POST")
	bodyMethod("http_put", "PUT")
	bodyMethod("http_patch", "PATCH")
	Register("http_delete", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, "DELETE", Display(arg(args, 0)), arg(args, 1))
	})
	Register("http_request", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, strings.ToUpper(Display(arg(args, 0))), Display(arg(args, 1)), arg(args, 2))
	})
	Register("http_mock", func(c *Call, args []Value) (Value, error) {
		m := &httpMock{method: Display(arg(args, 0)), pattern: Display(arg(args, 1))}
		if r := arg(args, 2); r.k == KindDict {
			d := r.r.(*Dict)
			if rs, ok := d.Get("responses"); ok && rs.k == KindList {
				for _, x := range rs.r.(*List).items {
					if x.k == KindDict {
						m.responses = append(m.responses, parseMockResponse(x.r.(*Dict)))
					}
				}
			}
			if len(m.responses) == 0 {
				m.responses = []httpMockResponse{parseMockResponse(d)}
			}
		}
		if len(m.responses) == 0 {
			m.responses = []httpMockResponse{{status: 200, headers: NewDict(0)}}
		}
		st := httpOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		kept := st.mocks[:0]
		for _, o := range st.mocks {
			if !(o.method == m.method && o.pattern == m.pattern) {
				kept = append(kept, o)
			}
		}
		st.mocks = append(kept, m)
		return Nil, nil
	})
	Register("http_mock_clear", func(c *Call, args []Value) (Value, error) {
		st := httpOf(c)
		st.mu.Lock()
		st.mocks, st.calls = nil, nil
		st.mu.Unlock()
		return Nil, nil
	})
	Register("http_mock_calls", func(c *Call, args []Value) (Value, error) {
		redact := true
		if o := arg(args, 0); o.k == KindDict {
			d := o.r.(*Dict)
			for _, k := range []string{"include_sensitive", "include_sensitive_headers"} {
				if v, ok := d.Get(k); ok && v.Truthy() {
					redact = false
				}
			}
			for _, k := range []string{"redact_sensitive", "redact_headers"} {
				if v, ok := d.Get(k); ok && !v.Truthy() {
					redact = false
				}
			}
		}
		st := httpOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		out := make([]Value, len(st.calls))
		for i, call := range st.calls {
			h := NewDict(call.headers.Len())
			for k, v := range call.headers.m {
				if redact && sensitiveHeaders[strings.ToLower(k)] {
					v = Str("[redacted]")
				}
				h.Set(k, v)
			}
			d := NewDict(4)
			d.Set("method", Str(call.method))
			d.Set("url", Str(call.url))
			d.Set("headers", DictValue(h))
			d.Set("body", call.body)
			out[i] = DictValue(d)
		}
		return NewListValue(out), nil
	})
}
