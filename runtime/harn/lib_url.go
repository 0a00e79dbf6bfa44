package harn

import (
	neturl "net/url"
	"strconv"
	"strings"
)

// URL builtins: url_parse splits a URL into {scheme, host, port, path,
// query, fragment, username, password} (a scheme's default port reads as
// nil, and http-like URLs always have a path); url_build joins such a dict;
// query_parse and query_stringify convert between a query string and a
// list of {key, value} pairs with form encoding (space as +).

// specialSchemes have a default port and a path of at least "/".
var specialSchemes = map[string]int{"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": -1}

func parseURL(raw string) (*neturl.URL, error) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" {
		return nil, errorString("relative URL without a base")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if _, ok := specialSchemes[u.Scheme]; ok {
		if u.Host == "" && u.Scheme != "file" {
			return nil, errorString("empty host")
		}
		if u.Path == "" {
			u.Path = "/"
		}
		u.Host = strings.ToLower(u.Host)
		if def := specialSchemes[u.Scheme]; def > 0 && u.Port() == strconv.Itoa(def) {
			u.Host = u.Hostname()
		}
	}
	return u, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// formEncode is application/x-www-form-urlencoded: letters, digits and
// *-._ stay, a space becomes +, every other byte is %XX.
func formEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '*', ch == '-', ch == '.', ch == '_':
			b.WriteByte(ch)
		case ch == ' ':
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(ch)>>4, 16)) + strings.ToUpper(strconv.FormatInt(int64(ch)&15, 16)))
		}
	}
	return b.String()
}

func formDecode(s string) string {
	if v, err := neturl.QueryUnescape(s); err == nil {
		return v
	}
	return strings.ReplaceAll(s, "+", " ")
}

func installUrl(lib *Library) {
	lib.Builtin("url_parse", func(c *Call, args []Value) (Value, error) {
		u, err := parseURL(Display(Arg(args, 0)))
		if err != nil {
			return Nil, throwValue(Str("url_parse: " + err.Error()))
		}
		opt := func(s string, present bool) Value {
			if !present {
				return Nil
			}
			return Str(s)
		}
		d := NewDict(8)
		d.Set("scheme", Str(u.Scheme))
		d.Set("host", opt(u.Hostname(), u.Host != ""))
		if p, err := strconv.Atoi(u.Port()); err == nil {
			d.Set("port", Int(int64(p)))
		} else {
			d.Set("port", Nil)
		}
		d.Set("path", Str(u.EscapedPath()))
		d.Set("query", opt(u.RawQuery, u.ForceQuery || u.RawQuery != ""))
		d.Set("fragment", opt(u.EscapedFragment(), u.Fragment != ""))
		user, pass := "", ""
		hasPass := false
		if u.User != nil {
			user = u.User.Username()
			pass, hasPass = u.User.Password()
		}
		d.Set("username", opt(user, user != ""))
		d.Set("password", opt(pass, hasPass))
		return DictValue(d), nil
	})
	lib.Builtin("url_build", func(c *Call, args []Value) (Value, error) {
		parts := Arg(args, 0)
		if parts.k != KindDict {
			return Nil, throwValue(Str("url_build: expected a dict of url parts"))
		}
		d := parts.r.(*Dict)
		str := func(k string) string {
			if v, ok := d.Get(k); ok && v.k == KindString {
				return v.r.(string)
			}
			return ""
		}
		scheme := str("scheme")
		if scheme == "" {
			return Nil, throwValue(Str("url_build: 'scheme' is required"))
		}
		path := "/"
		if v, ok := d.Get("path"); ok && v.k == KindString {
			path = v.r.(string)
		}
		userinfo := ""
		if u := str("username"); u != "" {
			userinfo = u + "@"
			if v, ok := d.Get("password"); ok && v.k == KindString {
				userinfo = u + ":" + v.r.(string) + "@"
			}
		}
		port := ""
		if v, ok := d.Get("port"); ok && v.k == KindInt {
			port = ":" + strconv.FormatInt(int64(v.n), 10)
		}
		out := scheme + ":"
		if host := str("host"); host != "" {
			out += "//" + userinfo + host + port
		}
		out += path
		if q := str("query"); q != "" {
			out += "?" + q
		}
		if f := str("fragment"); f != "" {
			out += "#" + f
		}
		u, err := parseURL(out)
		if err != nil {
			return Nil, throwValue(Str("url_build: " + err.Error()))
		}
		return Str(u.String()), nil
	})
	lib.Builtin("query_parse", func(c *Call, args []Value) (Value, error) {
		raw := strings.TrimPrefix(Display(Arg(args, 0)), "?")
		var out []Value
		for _, part := range strings.Split(raw, "&") {
			if part == "" {
				continue
			}
			k, v, _ := strings.Cut(part, "=")
			row := NewDict(2)
			row.Set("key", Str(formDecode(k)))
			row.Set("value", Str(formDecode(v)))
			out = append(out, DictValue(row))
		}
		return NewListValue(out), nil
	})
	lib.Builtin("query_stringify", func(c *Call, args []Value) (Value, error) {
		items := Arg(args, 0)
		if items.k != KindList {
			return Nil, throwValue(Str("query_stringify: expected a list of {key, value} dicts"))
		}
		var parts []string
		for _, it := range items.r.(*List).items {
			if it.k != KindDict {
				return Nil, throwValue(Str("query_stringify: each item must be a {key, value} dict"))
			}
			d := it.r.(*Dict)
			k := ""
			if v, ok := d.Get("key"); ok && v.k == KindString {
				k = v.r.(string)
			}
			val := ""
			if v, ok := d.Get("value"); ok {
				val = Display(v)
			}
			parts = append(parts, formEncode(k)+"="+formEncode(val))
		}
		return Str(strings.Join(parts, "&")), nil
	})
}
