package harn

import (
	"fmt"
	"strings"
	"sync"
)

// The inbound HTTP server family: http_server defines a router in the
// program's memory (routes with {name} and :name path parameters, before
// and after middleware, a readiness gate, shutdown hooks, body limits);
// http_server_request/http_server_test dispatch a request dict through it.
// No socket is bound: a host adapter (or a test) hands requests in, so the
// family needs no network grant. http_response*, http_header build and
// read the response and request dicts handlers exchange.

const (
	httpServerDefaultMaxBody = 1 << 20
	httpServerMaxServers     = 128
)

type httpRoute struct {
	method, template string
	handler          Value
	maxBody          int64 // -1: the server's
	retainRaw        int8  // -1: the server's, 0 false, 1 true
}

type httpServer struct {
	routes        []httpRoute
	before, after []Value
	ready         bool
	readiness     Value
	shutdownHooks []Value
	shutdown      bool
	maxBody       int64
	retainRawBody bool
}

type httpServerState struct {
	mu      sync.Mutex
	next    int
	servers map[string]*httpServer
}

func httpServersOf(c *Call) *httpServerState {
	return c.th.in.State("http_server", func() any {
		return &httpServerState{servers: map[string]*httpServer{}}
	}).(*httpServerState)
}

func httpServerHandle(id string) Value {
	d := NewDict(2)
	d.Set("id", Str(id))
	d.Set("kind", Str("http_server"))
	return DictValue(d)
}

// httpServerArg resolves the server handle in args[0] and runs edit on it
// under the state's lock.
func httpServerArg(c *Call, args []Value, fn string, edit func(s *httpServer) error) (string, *httpServer, error) {
	id, err := handleArg(args, fn, "server handle")
	if err != nil {
		return "", nil, err
	}
	st := httpServersOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.servers[id]
	if !ok {
		return "", nil, Errorf("%s: unknown server '%s'", fn, id)
	}
	if edit != nil {
		if err := edit(s); err != nil {
			return "", nil, err
		}
	}
	return id, s, nil
}

func httpClosureArg(c *Call, args []Value, i int) (Value, error) {
	if i >= len(args) {
		return Nil, Errorf("%s: missing closure argument %d", c.Name, i+1)
	}
	return argCallable(c, args, i)
}

// httpSizeOpt reads a non-negative int option; ok is false when absent.
func httpSizeOpt(fn string, o *Dict, key string) (int64, bool, error) {
	v, found := o.Get(key)
	if !found || v.k != KindInt {
		return 0, false, nil
	}
	if v.AsInt() < 0 {
		return 0, false, Errorf("%s: %s must be non-negative", fn, key)
	}
	return v.AsInt(), true, nil
}

func httpHeaderLookup(h *Dict, name string) Value {
	for _, k := range h.Keys() {
		if strings.EqualFold(k, name) {
			v, _ := h.Get(k)
			return v
		}
	}
	return Nil
}

// httpLowerHeaders copies a header dict with lower-case names and text values.
func httpLowerHeaders(v Value) *Dict {
	out := NewDict(4)
	if v.k != KindDict {
		return out
	}
	d := v.r.(*Dict)
	for _, k := range d.Keys() {
		hv, _ := d.Get(k)
		out.Set(strings.ToLower(k), Str(Display(hv)))
	}
	return out
}

func httpDictOpt(o *Dict, key string) *Dict {
	if v, ok := o.Get(key); ok && v.k == KindDict {
		return v.r.(*Dict).clone()
	}
	return NewDict(2)
}

func serverResponse(status int64, headers *Dict, body Value, kind string) Value {
	if status < 100 || status > 999 {
		status = 500
	}
	if httpHeaderLookup(headers, "content-type").k == KindNil {
		switch kind {
		case "json":
			headers.Set("content-type", Str("application/json; charset=utf-8"))
		case "text":
			headers.Set("content-type", Str("text/plain; charset=utf-8"))
		}
	}
	d := NewDict(6)
	d.Set("status", Int(status))
	d.Set("headers", DictValue(headers))
	d.Set("ok", Bool(status >= 200 && status < 300))
	d.Set("body_kind", Str(kind))
	if body.k == KindBytes {
		b := body.AsBytes()
		d.Set("body", Str(strings.ToValidUTF8(string(b), "\uFFFD")))
		d.Set("raw_body", BytesValue(b))
	} else {
		text := Display(body)
		if body.k == KindNil {
			text = ""
		}
		d.Set("body", Str(text))
		d.Set("raw_body", BytesValue([]byte(text)))
	}
	return DictValue(d)
}

func httpIsResponse(v Value) bool { return v.k == KindDict && v.r.(*Dict).Has("status") }

// httpNormalizeResponse turns what a handler returned into a response:
// a dict with a status is rebuilt, nil is 204, anything else a 200 text body.
func httpNormalizeResponse(v Value) Value {
	switch {
	case httpIsResponse(v):
		d := v.r.(*Dict)
		status := int64(200)
		if s, _ := d.Get("status"); s.k == KindInt {
			status = s.AsInt()
		}
		kind := "text"
		if k, ok := d.Get("body_kind"); ok {
			kind = Display(k)
		} else if k, ok := d.Get("kind"); ok {
			kind = Display(k)
		}
		body := Nil
		if rb, ok := d.Get("raw_body"); ok && rb.k == KindBytes {
			body = rb
		} else if b, ok := d.Get("body"); ok {
			body = b
		}
		return serverResponse(status, httpDictOpt(d, "headers"), body, kind)
	case v.k == KindNil:
		return serverResponse(204, NewDict(1), Nil, "text")
	}
	return serverResponse(200, NewDict(1), v, "text")
}

// httpRouteMatch matches path against a template, returning its parameters.
func httpRouteMatch(template, path string) (*Dict, bool) {
	params := NewDict(2)
	if template == "/" && path == "/" {
		return params, true
	}
	ts := strings.Split(strings.Trim(template, "/"), "/")
	ps := strings.Split(strings.Trim(path, "/"), "/")
	if len(ts) != len(ps) {
		return nil, false
	}
	for i, t := range ts {
		switch {
		case len(t) > 2 && t[0] == '{' && t[len(t)-1] == '}':
			params.Set(t[1:len(t)-1], Str(formDecode(ps[i])))
		case len(t) > 1 && t[0] == ':':
			params.Set(t[1:], Str(formDecode(ps[i])))
		case t != ps[i]:
			return nil, false
		}
	}
	return params, true
}

func httpUnavailable(msg string) Value { return serverResponse(503, NewDict(1), Str(msg), "text") }

// httpServerDispatch runs one request through the server: readiness, route
// match, body limit, before middleware, handler, after middleware.
func httpServerDispatch(c *Call, args []Value) (Value, error) {
	if len(args) < 2 {
		return Nil, Errorf("%s: requires server and request", c.Name)
	}
	var snap httpServer
	id, _, err := httpServerArg(c, args, c.Name, func(s *httpServer) error {
		snap = *s
		snap.routes = append([]httpRoute(nil), s.routes...)
		snap.before = append([]Value(nil), s.before...)
		snap.after = append([]Value(nil), s.after...)
		return nil
	})
	if err != nil {
		return Nil, err
	}
	if snap.shutdown {
		return httpUnavailable("server is shut down"), nil
	}
	if !snap.ready {
		return httpUnavailable("server is not ready"), nil
	}
	if snap.readiness.k != KindNil {
		ok, err := c.Invoke(snap.readiness, httpServerHandle(id))
		if err != nil {
			return Nil, err
		}
		if !ok.Truthy() {
			return httpUnavailable("server is not ready"), nil
		}
	}
	in := optsArg(args, 1)
	method := "GET"
	if m, ok := in.Get("method"); ok && m.k != KindNil && Display(m) != "" {
		method = strings.ToUpper(Display(m))
	}
	rawPath := "/"
	if p, ok := in.Get("path"); ok && p.k != KindNil && Display(p) != "" {
		rawPath = Display(p)
	}
	path, rawQuery, _ := strings.Cut(rawPath, "?")
	if path == "" {
		path = "/"
	}
	query := NewDict(2)
	for pair := range strings.SplitSeq(rawQuery, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		query.Set(formDecode(k), Str(formDecode(v)))
	}
	var body []byte
	if b, ok := in.Get("raw_body"); ok {
		body = httpBodyBytes(b)
	} else if b, ok := in.Get("body"); ok {
		body = httpBodyBytes(b)
	}
	var route *httpRoute
	var params *Dict
	for i := range snap.routes {
		r := &snap.routes[i]
		if r.method != "*" && !strings.EqualFold(r.method, method) {
			continue
		}
		if p, ok := httpRouteMatch(r.template, path); ok {
			route, params = r, p
			break
		}
	}
	if route == nil {
		return serverResponse(404, NewDict(1), Str("no route for "+method+" "+path), "text"), nil
	}
	limit := snap.maxBody
	if route.maxBody >= 0 {
		limit = route.maxBody
	}
	if int64(len(body)) > limit {
		h := NewDict(3)
		h.Set("content-type", Str("text/plain; charset=utf-8"))
		h.Set("connection", Str("close"))
		h.Set("x-harn-body-limit", Str(fmt.Sprint(limit)))
		return serverResponse(413, h, Str(fmt.Sprintf("request body too large: %d > %d bytes", len(body), limit)), "text"), nil
	}
	retain := snap.retainRawBody
	if route.retainRaw >= 0 {
		retain = route.retainRaw == 1
	}
	if q, ok := in.Get("query"); ok && q.k == KindDict {
		qd := q.r.(*Dict)
		for _, k := range qd.Keys() {
			v, _ := qd.Get(k)
			query.Set(k, v)
		}
	}
	headersIn, _ := in.Get("headers")
	req := NewDict(12)
	req.Set("method", Str(method))
	req.Set("path", Str(path))
	req.Set("path_params", DictValue(params))
	req.Set("params", DictValue(params.clone()))
	req.Set("query", DictValue(query))
	req.Set("headers", DictValue(httpLowerHeaders(headersIn)))
	req.Set("body", Str(strings.ToValidUTF8(string(body), "\uFFFD")))
	req.Set("raw_body", Nil)
	if retain {
		req.Set("raw_body", BytesValue(body))
	}
	req.Set("body_bytes", Int(int64(len(body))))
	req.Set("remote_addr", httpFirstText(in, "remote_addr", "remote"))
	req.Set("client_ip", httpFirstText(in, "client_ip", "remote_ip", "ip"))
	request := DictValue(req)
	for _, h := range snap.before {
		out, err := c.Invoke(h, request)
		if err != nil {
			return Nil, err
		}
		if httpIsResponse(out) {
			return httpNormalizeResponse(out), nil
		}
		if out.k != KindNil {
			request = out
		}
	}
	out, err := c.Invoke(route.handler, request)
	if err != nil {
		return Nil, err
	}
	response := httpNormalizeResponse(out)
	for _, h := range snap.after {
		out, err := c.Invoke(h, response, request)
		if err != nil {
			return Nil, err
		}
		if out.k != KindNil {
			response = httpNormalizeResponse(out)
		}
	}
	return response, nil
}

func httpBodyBytes(v Value) []byte {
	switch v.k {
	case KindBytes:
		return v.AsBytes()
	case KindNil:
		return nil
	}
	return []byte(Display(v))
}

func httpFirstText(d *Dict, keys ...string) Value {
	for _, k := range keys {
		if v, ok := d.Get(k); ok {
			return Str(Display(v))
		}
	}
	return Nil
}

// httpResponseOpts reads the status and headers options of http_response_*.
func httpResponseOpts(args []Value) (int64, *Dict) {
	o := optsArg(args, 1)
	status := int64(200)
	if s, ok := o.Get("status"); ok && s.k == KindInt {
		status = s.AsInt()
	}
	return status, httpDictOpt(o, "headers")
}

func installHttpServer(lib *Library) {
	lib.Builtin("http_server", func(c *Call, args []Value) (Value, error) {
		o := optsArg(args, 0)
		s := &httpServer{ready: true, retainRawBody: true, maxBody: httpServerDefaultMaxBody}
		if v, ok := o.Get("ready"); ok && v.k == KindBool {
			s.ready = v.AsBool()
		}
		if v, ok := o.Get("retain_raw_body"); ok && v.k == KindBool {
			s.retainRawBody = v.AsBool()
		}
		if n, ok, err := httpSizeOpt("http_server", o, "max_body_bytes"); err != nil {
			return Nil, err
		} else if ok {
			s.maxBody = n
		}
		st := httpServersOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if len(st.servers) >= httpServerMaxServers {
			return Nil, Errorf("http_server: maximum open servers (%d) reached", httpServerMaxServers)
		}
		st.next++
		id := fmt.Sprintf("http-server-%d", st.next)
		st.servers[id] = s
		return httpServerHandle(id), nil
	})
	lib.Builtin("http_server_route", func(c *Call, args []Value) (Value, error) {
		if len(args) < 4 {
			return Nil, Errorf("http_server_route: requires server, method, path template, and handler")
		}
		method := strings.ToUpper(Display(args[1]))
		if method == "" {
			return Nil, Errorf("http_server_route: method is required")
		}
		template := Display(args[2])
		if !strings.HasPrefix(template, "/") {
			return Nil, Errorf("http_server_route: path template must start with '/'")
		}
		handler, err := httpClosureArg(c, args, 3)
		if err != nil {
			return Nil, err
		}
		o := optsArg(args, 4)
		r := httpRoute{method: method, template: template, handler: handler, maxBody: -1, retainRaw: -1}
		if n, ok, err := httpSizeOpt("http_server_route", o, "max_body_bytes"); err != nil {
			return Nil, err
		} else if ok {
			r.maxBody = n
		}
		if v, ok := o.Get("retain_raw_body"); ok && v.k == KindBool {
			r.retainRaw = 0
			if v.AsBool() {
				r.retainRaw = 1
			}
		}
		id, _, err := httpServerArg(c, args, "http_server_route", func(s *httpServer) error {
			s.routes = append(s.routes, r)
			return nil
		})
		if err != nil {
			return Nil, err
		}
		return httpServerHandle(id), nil
	})
	hook := func(name string, add func(s *httpServer, h Value)) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			if len(args) < 2 {
				return Nil, Errorf("%s: requires server and handler", name)
			}
			h, err := httpClosureArg(c, args, 1)
			if err != nil {
				return Nil, err
			}
			id, _, err := httpServerArg(c, args, name, func(s *httpServer) error {
				add(s, h)
				return nil
			})
			if err != nil {
				return Nil, err
			}
			return httpServerHandle(id), nil
		})
	}
	hook("http_server_before", func(s *httpServer, h Value) { s.before = append(s.before, h) })
	hook("http_server_after", func(s *httpServer, h Value) { s.after = append(s.after, h) })
	hook("http_server_readiness", func(s *httpServer, h Value) { s.readiness = h })
	hook("http_server_on_shutdown", func(s *httpServer, h Value) { s.shutdownHooks = append(s.shutdownHooks, h) })
	lib.Builtin("http_server_request", httpServerDispatch)
	lib.Builtin("http_server_test", httpServerDispatch)
	lib.Builtin("http_server_set_ready", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, Errorf("http_server_set_ready: requires server and ready bool")
		}
		ready := args[1].k == KindBool && args[1].AsBool()
		_, _, err := httpServerArg(c, args, "http_server_set_ready", func(s *httpServer) error {
			s.ready = ready
			return nil
		})
		return Bool(ready), err
	})
	lib.Builtin("http_server_ready", func(c *Call, args []Value) (Value, error) {
		var snap httpServer
		id, _, err := httpServerArg(c, args, "http_server_ready", func(s *httpServer) error {
			snap = *s
			return nil
		})
		if err != nil {
			return Nil, err
		}
		if snap.shutdown {
			return Bool(false), nil
		}
		if snap.readiness.k == KindNil {
			return Bool(snap.ready), nil
		}
		ok, err := c.Invoke(snap.readiness, httpServerHandle(id))
		if err != nil {
			return Nil, err
		}
		return Bool(ok.Truthy()), nil
	})
	lib.Builtin("http_server_shutdown", func(c *Call, args []Value) (Value, error) {
		var hooks []Value
		id, _, err := httpServerArg(c, args, "http_server_shutdown", func(s *httpServer) error {
			s.shutdown = true
			hooks = append(hooks, s.shutdownHooks...)
			return nil
		})
		if err != nil {
			return Nil, err
		}
		for _, h := range hooks {
			if _, err := c.Invoke(h, httpServerHandle(id)); err != nil {
				return Nil, err
			}
		}
		return Bool(true), nil
	})
	lib.Builtin("http_response", func(c *Call, args []Value) (Value, error) {
		status := int64(200)
		if s := Arg(args, 0); s.k == KindInt {
			status = s.AsInt()
		}
		headers := NewDict(2)
		if h := Arg(args, 2); h.k == KindDict {
			headers = h.r.(*Dict).clone()
		}
		return serverResponse(status, headers, Arg(args, 1), "text"), nil
	})
	lib.Builtin("http_response_text", func(c *Call, args []Value) (Value, error) {
		status, headers := httpResponseOpts(args)
		return serverResponse(status, headers, Arg(args, 0), "text"), nil
	})
	lib.Builtin("http_response_json", func(c *Call, args []Value) (Value, error) {
		body, err := c.stringifyJSON("http_response_json", Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		status, headers := httpResponseOpts(args)
		return serverResponse(status, headers, body, "json"), nil
	})
	lib.Builtin("http_response_bytes", func(c *Call, args []Value) (Value, error) {
		status, headers := httpResponseOpts(args)
		return serverResponse(status, headers, BytesValue(httpBodyBytes(Arg(args, 0))), "bytes"), nil
	})
	lib.Builtin("http_header", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, Errorf("http_header: requires headers/request/response and name")
		}
		var headers *Dict
		if m := args[0]; m.k == KindDict {
			if h, ok := m.r.(*Dict).Get("headers"); ok && h.k == KindDict {
				headers = httpLowerHeaders(h)
			} else {
				headers = httpLowerHeaders(m)
			}
		} else {
			headers = NewDict(0)
		}
		return httpHeaderLookup(headers, Display(args[1])), nil
	})
}
