package leia

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// http and net: an HTTP client through the host, which refuses every
// request unless the user granted --allow-net (and the host it names).
// http.get(url, opts?), http.post(url, body, opts?) and
// http.request({method, url, headers, body, timeout}) give
// {status, body, headers} or nil and an error message. vec and color are
// small value helpers.

const maxResponseBytes = 64 << 20

func httpRequest(t *Thread, method, url string, body string, opts *Table) ([]Value, error) {
	h, err := t.in.host()
	if err != nil {
		return ioFail(t, err)
	}
	timeout := 30 * time.Second
	headers := map[string]string{}
	if opts != nil {
		if s, ok := toNumber(opts.GetStr("timeout")); ok && s.AsFloat() > 0 {
			timeout = secondsDuration(s.AsFloat())
		}
		if ht := opts.GetStr("headers").Table(); ht != nil {
			ht.Iter(func(k, v Value) bool {
				headers[t.tostring(k, -1)] = t.tostring(v, -1)
				return true
			})
		}
	}
	ctx, cancel := context.WithTimeout(t.in.Context(), timeout)
	defer cancel()
	req, rerr := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if rerr != nil {
		return ioFail(t, rerr)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	s := &t.in.sched
	w := s.block(t, true, "", -1)
	resp, derr := h.HTTPClient(timeout).Do(req)
	var data []byte
	if derr == nil {
		data, derr = io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
		resp.Body.Close()
	}
	s.unblock(t, w)
	if derr != nil {
		return ioFail(t, derr)
	}
	out := NewTable(0, 3)
	out.SetStr("status", Int(int64(resp.StatusCode)))
	out.SetStr("body", String(string(data)))
	hdr := NewTable(0, len(resp.Header))
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		hdr.SetStr(k, String(resp.Header.Get(k)))
	}
	out.SetStr("headers", TableValue(hdr))
	return t.Ret1(TableValue(out)), nil
}

func openNet(in *Interp) {
	get := func(t *Thread, a []Value) ([]Value, error) {
		u, err := CheckString(a, 0, "get")
		if err != nil {
			return nil, err
		}
		return httpRequest(t, "GET", u, "", Arg(a, 1).Table())
	}
	post := func(t *Thread, a []Value) ([]Value, error) {
		u, err := CheckString(a, 0, "post")
		if err != nil {
			return nil, err
		}
		body, err := OptString(a, 1, "post", "")
		if err != nil {
			return nil, err
		}
		return httpRequest(t, "POST", u, body, Arg(a, 2).Table())
	}
	request := func(t *Thread, a []Value) ([]Value, error) {
		o, err := CheckTable(a, 0, "request")
		if err != nil {
			return nil, err
		}
		method := "GET"
		if m := o.GetStr("method"); m.k == KindString {
			method = strings.ToUpper(m.AsString())
		}
		u := o.GetStr("url")
		if u.k != KindString {
			return nil, fmt.Errorf("request: url must be a string")
		}
		return httpRequest(t, method, u.AsString(), o.GetStr("body").AsString(), o)
	}
	for _, name := range []string{"http", "net"} {
		newModule(in, name, map[string]NativeFunc{"get": get, "post": post, "request": request})
	}
}

func openVecColor(in *Interp) {
	comps := []string{"x", "y", "z"}
	vecArg := func(a []Value, i int, name string) ([]float64, error) {
		t := Arg(a, i).Table()
		if t == nil {
			return nil, typeError(i, name, "vector", Arg(a, i))
		}
		var out []float64
		for _, c := range comps {
			v := t.GetStr(c)
			if v.k == KindNil {
				break
			}
			n, ok := toNumber(v)
			if !ok {
				return nil, ArgError(i, name, "vector component "+c+" is not a number")
			}
			out = append(out, n.AsFloat())
		}
		if len(out) < 2 {
			return nil, ArgError(i, name, "vector needs x and y")
		}
		return out, nil
	}
	mk := func(xs []float64) Value {
		t := NewTable(0, len(xs))
		for i, x := range xs {
			t.SetStr(comps[i], Float(x))
		}
		return TableValue(t)
	}
	two := func(name string, f func(a, b float64) float64) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			x, err := vecArg(a, 0, name)
			if err != nil {
				return nil, err
			}
			y, err := vecArg(a, 1, name)
			if err != nil {
				return nil, err
			}
			if len(x) != len(y) {
				return nil, fmt.Errorf("%s: vectors of different sizes", name)
			}
			out := make([]float64, len(x))
			for i := range x {
				out[i] = f(x[i], y[i])
			}
			return t.Ret1(mk(out)), nil
		}
	}
	length := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		return math.Sqrt(s)
	}
	newModule(in, "vec", map[string]NativeFunc{
		"new": func(t *Thread, a []Value) ([]Value, error) {
			var xs []float64
			for i := 0; i < len(a) && i < 3; i++ {
				x, err := CheckFloat(a, i, "new")
				if err != nil {
					return nil, err
				}
				xs = append(xs, x)
			}
			for len(xs) < 2 {
				xs = append(xs, 0)
			}
			return t.Ret1(mk(xs)), nil
		},
		"add": two("add", func(a, b float64) float64 { return a + b }),
		"sub": two("sub", func(a, b float64) float64 { return a - b }),
		"scale": func(t *Thread, a []Value) ([]Value, error) {
			x, err := vecArg(a, 0, "scale")
			if err != nil {
				return nil, err
			}
			k, err := CheckFloat(a, 1, "scale")
			if err != nil {
				return nil, err
			}
			for i := range x {
				x[i] *= k
			}
			return t.Ret1(mk(x)), nil
		},
		"dot": func(t *Thread, a []Value) ([]Value, error) {
			x, err := vecArg(a, 0, "dot")
			if err != nil {
				return nil, err
			}
			y, err := vecArg(a, 1, "dot")
			if err != nil {
				return nil, err
			}
			s := 0.0
			for i := range x {
				if i < len(y) {
					s += x[i] * y[i]
				}
			}
			return t.Ret1(Float(s)), nil
		},
		"length": func(t *Thread, a []Value) ([]Value, error) {
			x, err := vecArg(a, 0, "length")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Float(length(x))), nil
		},
		"normalize": func(t *Thread, a []Value) ([]Value, error) {
			x, err := vecArg(a, 0, "normalize")
			if err != nil {
				return nil, err
			}
			l := length(x)
			if l == 0 {
				return t.Ret1(mk(x)), nil
			}
			for i := range x {
				x[i] /= l
			}
			return t.Ret1(mk(x)), nil
		},
	})
	clamp := func(v int64) int64 { return max(0, min(255, v)) }
	newModule(in, "color", map[string]NativeFunc{
		"rgb": func(t *Thread, a []Value) ([]Value, error) {
			c := NewTable(0, 4)
			for i, k := range []string{"r", "g", "b"} {
				n, err := CheckInt(a, i, "rgb")
				if err != nil {
					return nil, err
				}
				c.SetStr(k, Int(clamp(n)))
			}
			alpha, err := OptFloat(a, 3, "rgb", 1)
			if err != nil {
				return nil, err
			}
			c.SetStr("a", Float(alpha))
			return t.Ret1(TableValue(c)), nil
		},
		"hex": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "hex")
			if err != nil {
				return nil, err
			}
			s = strings.TrimPrefix(s, "#")
			if len(s) == 3 {
				s = string([]byte{s[0], s[0], s[1], s[1], s[2], s[2]})
			}
			var r, g, b int
			if _, perr := fmt.Sscanf(s, "%02x%02x%02x", &r, &g, &b); perr != nil || len(s) != 6 {
				return t.Ret2(Nil, String("invalid hex color")), nil
			}
			c := NewTable(0, 4)
			c.SetStr("r", Int(int64(r)))
			c.SetStr("g", Int(int64(g)))
			c.SetStr("b", Int(int64(b)))
			c.SetStr("a", Float(1))
			return t.Ret1(TableValue(c)), nil
		},
		"toHex": func(t *Thread, a []Value) ([]Value, error) {
			c, err := CheckTable(a, 0, "toHex")
			if err != nil {
				return nil, err
			}
			r, _ := toInteger(c.GetStr("r"))
			g, _ := toInteger(c.GetStr("g"))
			b, _ := toInteger(c.GetStr("b"))
			return t.Ret1(String(fmt.Sprintf("#%02x%02x%02x", clamp(r), clamp(g), clamp(b)))), nil
		},
	})
}

// openURL installs url, with its aliases.
func openURL(in *Interp) {
	newModule(in, "url", map[string]NativeFunc{
		"parse": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "parse")
			if err != nil {
				return nil, err
			}
			u, perr := url.Parse(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r := NewTable(0, 10)
			r.SetStr("scheme", String(u.Scheme))
			r.SetStr("host", String(u.Hostname()))
			r.SetStr("port", String(u.Port()))
			r.SetStr("path", String(u.Path))
			r.SetStr("rawQuery", String(u.RawQuery))
			r.SetStr("fragment", String(u.Fragment))
			if u.User != nil {
				r.SetStr("user", String(u.User.Username()))
				if p, ok := u.User.Password(); ok {
					r.SetStr("password", String(p))
				}
			}
			q := NewTable(0, 4)
			vals := u.Query()
			for _, k := range sortedKeys(vals) {
				q.SetStr(k, String(vals.Get(k)))
			}
			r.SetStr("query", TableValue(q))
			return t.Ret1(TableValue(r)), nil
		},
		"encode": str1(specOf("url.encode"), url.QueryEscape),
		"decode": str1err(specOf("url.decode"), url.QueryUnescape),
		"getPath": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "getPath")
			if err != nil {
				return nil, err
			}
			u, perr := url.Parse(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			return t.Ret1(String(u.Path)), nil
		},
		"escape":        str1(specOf("url.escape"), url.QueryEscape),
		"queryEscape":   str1(specOf("url.queryEscape"), url.QueryEscape),
		"pathEscape":    str1(specOf("url.pathEscape"), url.PathEscape),
		"unescape":      str1err(specOf("url.unescape"), url.QueryUnescape),
		"queryUnescape": str1err(specOf("url.queryUnescape"), url.QueryUnescape),
		"pathUnescape":  str1err(specOf("url.pathUnescape"), url.PathUnescape),
		"encodeQuery": func(t *Thread, a []Value) ([]Value, error) {
			tb, err := CheckTable(a, 0, "encodeQuery")
			if err != nil {
				return nil, err
			}
			v := url.Values{}
			tb.Iter(func(k, x Value) bool {
				if xt := x.Table(); xt != nil {
					for _, e := range xt.arr {
						v.Add(t.tostring(k, -1), t.tostring(e, -1))
					}
				} else {
					v.Set(t.tostring(k, -1), t.tostring(x, -1))
				}
				return true
			})
			return t.Ret1(String(v.Encode())), nil
		},
		"parseQuery": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "parseQuery")
			if err != nil {
				return nil, err
			}
			v, perr := url.ParseQuery(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r := NewTable(0, len(v))
			for _, k := range sortedKeys(v) {
				r.SetStr(k, String(v.Get(k)))
			}
			return t.Ret1(TableValue(r)), nil
		},
		"join": func(t *Thread, a []Value) ([]Value, error) {
			base, err := CheckString(a, 0, "join")
			if err != nil {
				return nil, err
			}
			ref, err := CheckString(a, 1, "join")
			if err != nil {
				return nil, err
			}
			b, perr := url.Parse(base)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r, perr := url.Parse(ref)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			return t.Ret1(String(b.ResolveReference(r).String())), nil
		},
	})
}

func urlAliases(in *Interp) {
	m := in.lib("url")
	m.SetStr("queryEncode", m.GetStr("encodeQuery"))
	m.SetStr("queryDecode", m.GetStr("parseQuery"))
	m.SetStr("resolve", m.GetStr("join"))
}
