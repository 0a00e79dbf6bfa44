package harn

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	neturl "net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/harnlang/harn-check/runtime/redact"
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

// httpRequest is one request's parsed options.
type httpRequest struct {
	method, url     string
	err             error // a malformed option, thrown when the request is made
	headers         *Dict // lower-case names
	body            Value
	bodyText        string
	timeout         time.Duration
	retryMax        int64
	backoffMs       int64
	retryStatuses   []int64
	retryMethods    []string
	respectRetryAft bool
}

func parseHTTPRequest(method, url string, opts Value) *httpRequest {
	r := &httpRequest{method: strings.ToUpper(method), url: url, headers: NewDict(0), timeout: 30 * time.Second,
		backoffMs: 1000, retryStatuses: []int64{408, 429, 500, 502, 503, 504},
		retryMethods: []string{"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}, respectRetryAft: true}
	if opts.k != KindDict {
		return r
	}
	o := opts.r.(*Dict)
	if h, ok := o.Get("headers"); ok && h.k == KindDict {
		for k, v := range h.r.(*Dict).m {
			r.headers.Set(strings.ToLower(k), v)
		}
	}
	if b, ok := o.Get("body"); ok {
		r.body = b
	}
	if q, ok := o.Get("query"); ok && q.k == KindDict {
		r.url = withQuery(r.url, q.r.(*Dict))
	}
	if mp, ok := o.Get("multipart"); ok {
		body, err := multipartBody(mp)
		if err != nil {
			r.err = err
		} else if r.body.k != KindNil {
			r.err = throwValue(Str("http: body and multipart options are mutually exclusive"))
		} else {
			r.body = Str(body)
			r.headers.Set("content-type", Str("multipart/form-data; boundary="+multipartBoundary))
		}
	}
	for _, k := range []string{"timeout_ms", "timeout", "total_timeout_ms"} {
		if t, ok := o.Get(k); ok {
			if ms, ok := DurationMillis(t); ok && ms > 0 {
				r.timeout = time.Duration(ms) * time.Millisecond
			}
		}
	}
	if rt, ok := o.Get("retry"); ok && rt.k == KindDict {
		if m := OptInt(rt.r.(*Dict), "max"); m != nil {
			r.retryMax = max(*m, 0)
		}
		if b := OptInt(rt.r.(*Dict), "backoff_ms"); b != nil {
			r.backoffMs = max(*b, 0)
		}
	} else if m := OptInt(o, "retries"); m != nil {
		r.retryMax = max(*m, 0)
	}
	if b := OptInt(o, "backoff"); b != nil {
		r.backoffMs = max(*b, 0)
	}
	if l, ok := o.Get("retry_on"); ok && l.k == KindList {
		var st []int64
		for _, x := range l.r.(*List).items {
			if x.k == KindInt {
				st = append(st, int64(x.n))
			}
		}
		if len(st) > 0 {
			r.retryStatuses = st
		}
	}
	if l, ok := o.Get("retry_methods"); ok && l.k == KindList {
		var ms []string
		for _, x := range l.r.(*List).items {
			if m := strings.ToUpper(strings.TrimSpace(Display(x))); m != "" {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			r.retryMethods = ms
		}
	}
	if v, ok := o.Get("respect_retry_after"); ok && v.k == KindBool {
		r.respectRetryAft = v.AsBool()
	}
	if r.body.k != KindNil {
		r.bodyText = Display(r.body)
	}
	return r
}

// multipartBoundary separates multipart/form-data parts; fixed, like
// upstream's, so mocked calls record a predictable body.
const multipartBoundary = "harn-boundary"

// multipartBody renders the multipart option: a list of {name, value |
// value_base64, filename?, content_type?} parts.
func multipartBody(v Value) (string, error) {
	if v.k != KindList {
		return "", throwValue(Str("http: multipart must be a list"))
	}
	var b strings.Builder
	for _, part := range v.r.(*List).items {
		if part.k != KindDict {
			return "", throwValue(Str("http: multipart entries must be dicts"))
		}
		d := part.r.(*Dict)
		name := OptStr(d, "name")
		if name == "" {
			return "", throwValue(Str("http: multipart entry requires name"))
		}
		var value string
		if b64, ok := d.Get("value_base64"); ok {
			raw, err := base64.StdEncoding.DecodeString(Display(b64))
			if err != nil {
				return "", throwValue(Str("http: invalid multipart base64 value: " + err.Error()))
			}
			value = string(raw)
		} else if x, ok := d.Get("value"); ok {
			if x.k == KindBytes {
				value = string(x.r.([]byte))
			} else {
				value = Display(x)
			}
		} else {
			return "", throwValue(Str("http: multipart entry requires value or value_base64"))
		}
		b.WriteString("--" + multipartBoundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"")
		if fn := OptStr(d, "filename"); fn != "" {
			b.WriteString("; filename=\"" + fn + "\"")
		}
		b.WriteString("\r\n")
		ct := OptStr(d, "content_type")
		if ct == "" {
			ct = OptStr(d, "mime_type")
		}
		if ct != "" {
			b.WriteString("Content-Type: " + ct + "\r\n")
		}
		b.WriteString("\r\n" + value + "\r\n")
	}
	b.WriteString("--" + multipartBoundary + "--\r\n")
	return b.String(), nil
}

// withQuery appends the query option's pairs (keys in order, nil values
// left out) to the URL.
func withQuery(raw string, q *Dict) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw
	}
	var b strings.Builder
	b.WriteString(u.RawQuery)
	for _, k := range q.Keys() {
		v, _ := q.Get(k)
		if v.k == KindNil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(neturl.QueryEscape(k) + "=" + neturl.QueryEscape(Display(v)))
	}
	u.RawQuery = b.String()
	return u.String()
}

// redactURL replaces the values of the query parameters upstream Harn
// calls sensitive (redact.HarnParams) with [redacted].
func redactURL(raw string) string {
	safe, _, _ := redact.URL(raw, redact.HarnParams, redact.Mark, false)
	return safe
}

// doHTTP performs a request with its retries: mocked, or through the
// host's client.
func doHTTP(c *Call, method, url string, opts Value) (Value, error) {
	r := parseHTTPRequest(method, url, opts)
	if r.err != nil {
		return Nil, r.err
	}
	for attempt := int64(0); ; attempt++ {
		status, headers, body, err := httpAttempt(c, r)
		if err != nil {
			return Nil, err
		}
		retryable := attempt < r.retryMax && containsStr(r.retryMethods, r.method) && containsInt(r.retryStatuses, status)
		if !retryable {
			return httpResponse(status, headers, body), nil
		}
		wait := r.backoffMs << min(attempt, 10)
		if ra, ok := headers.raw("retry-after"); ok && r.respectRetryAft {
			if secs, err := strconv.ParseFloat(strings.TrimSpace(Display(ra)), 64); err == nil && secs >= 0 {
				wait = int64(min(secs, 60) * 1000)
			}
		}
		if wait > 0 {
			var serr error
			c.Block(func() { serr = c.th.in.host.Sleep(c.th.ctx, time.Duration(wait)*time.Millisecond) })
			if serr != nil {
				return Nil, plainError("Deadline exceeded")
			}
		}
	}
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func containsInt(xs []int64, n int64) bool {
	for _, x := range xs {
		if x == n {
			return true
		}
	}
	return false
}

func httpAttempt(c *Call, r *httpRequest) (int64, *Dict, string, error) {
	st := httpOf(c)
	st.mu.Lock()
	for _, m := range st.mocks {
		if (m.method == "*" || strings.EqualFold(m.method, r.method)) && globMatches(m.pattern, r.url) {
			resp := m.responses[min(m.next, len(m.responses)-1)]
			if m.next < len(m.responses)-1 {
				m.next++
			}
			call := httpMockCall{method: r.method, url: r.url, headers: r.headers}
			if r.body.k != KindNil {
				call.body = Str(r.bodyText)
			}
			st.calls = append(st.calls, call)
			st.mu.Unlock()
			h := NewDict(resp.headers.Len())
			for k, v := range resp.headers.m {
				h.Set(strings.ToLower(k), v)
			}
			return resp.status, h, resp.body, nil
		}
	}
	st.mu.Unlock()
	if err := enforceEgress(c, c.Name, r.url); err != nil {
		return 0, nil, "", err
	}
	req, err := http.NewRequestWithContext(c.Context(), r.method, r.url, bytes.NewReader([]byte(r.bodyText)))
	if err != nil {
		return 0, nil, "", throwValue(Str(c.Name + ": " + err.Error()))
	}
	for k, v := range r.headers.m {
		req.Header.Set(k, Display(v))
	}
	var resp *http.Response
	var respBody []byte
	c.Block(func() {
		resp, err = c.Interp().host.HTTPClient(r.timeout).Do(req)
		if err == nil {
			respBody, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
			resp.Body.Close()
		}
	})
	if err != nil {
		return 0, nil, "", ioError(c.Name+" "+r.url, err)
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
	return int64(resp.StatusCode), rh, string(respBody), nil
}

func installHttp(lib *Library) {
	lib.Builtin("http_get", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, "GET", Display(Arg(args, 0)), Arg(args, 1))
	})
	bodyMethod := func(name, method string) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			// Like upstream: a dict and no options is the options.
			if b := Arg(args, 1); b.k == KindDict && len(args) < 3 {
				return doHTTP(c, method, Display(Arg(args, 0)), b)
			}
			opts := NewDict(2)
			if o := Arg(args, 2); o.k == KindDict {
				for k, v := range o.r.(*Dict).m {
					opts.Set(k, v)
				}
			}
			opts.Set("body", Str(Display(Arg(args, 1))))
			return doHTTP(c, method, Display(Arg(args, 0)), DictValue(opts))
		})
	}
	bodyMethod("http_post", "POST")
	bodyMethod("http_put", "PUT")
	bodyMethod("http_patch", "PATCH")
	lib.Builtin("http_delete", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, "DELETE", Display(Arg(args, 0)), Arg(args, 1))
	})
	lib.Builtin("http_request", func(c *Call, args []Value) (Value, error) {
		return doHTTP(c, strings.ToUpper(Display(Arg(args, 0))), Display(Arg(args, 1)), Arg(args, 2))
	})
	lib.Builtin("http_mock", func(c *Call, args []Value) (Value, error) {
		m := &httpMock{method: Display(Arg(args, 0)), pattern: Display(Arg(args, 1))}
		if r := Arg(args, 2); r.k == KindDict {
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
	lib.Builtin("http_mock_clear", func(c *Call, args []Value) (Value, error) {
		st := httpOf(c)
		st.mu.Lock()
		st.mocks, st.calls = nil, nil
		st.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("http_mock_calls", func(c *Call, args []Value) (Value, error) {
		redactOn := true
		if o := Arg(args, 0); o.k == KindDict {
			d := o.r.(*Dict)
			for _, k := range []string{"include_sensitive", "include_sensitive_headers"} {
				if v, ok := d.Get(k); ok && v.Truthy() {
					redactOn = false
				}
			}
			for _, k := range []string{"redact_sensitive", "redact_headers"} {
				if v, ok := d.Get(k); ok && !v.Truthy() {
					redactOn = false
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
				if redactOn && redact.HarnHeaders.Sensitive(k) {
					v = Str(redact.Mark)
				}
				h.Set(k, v)
			}
			d := NewDict(4)
			d.Set("method", Str(call.method))
			if redactOn {
				d.Set("url", Str(redactURL(call.url)))
			} else {
				d.Set("url", Str(call.url))
			}
			d.Set("headers", DictValue(h))
			d.Set("body", call.body)
			out[i] = DictValue(d)
		}
		return NewListValue(out), nil
	})
}
