package harn

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The cookie family: Cookie header parsing, Set-Cookie serialization
// with secure defaults for sessions and deletions, HMAC-signed cookie
// values and "v1.<payload>.<sig>" session tokens, and a client-side round
// trip that applies Set-Cookie headers to a Cookie header. Errors read
// "cookie: ..." as upstream's do.

func cookieErr(format string, a ...any) error {
	return plainError("cookie: " + fmt.Sprintf(format, a...))
}

func installCookies(lib *Library) {
	lib.Builtin("cookie_parse", func(c *Call, args []Value) (Value, error) {
		if len(args) < 1 {
			return Nil, cookieErr("cookie_parse requires 1 arguments")
		}
		return cookieParse(args[0])
	})
	lib.Builtin("cookie_serialize", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, cookieErr("cookie_serialize requires 2 arguments")
		}
		opts, err := cookieOptions(args, 2, "cookie_serialize")
		if err != nil {
			return Nil, err
		}
		s, err := serializeCookie(Display(args[0]), Display(args[1]), opts, cookieDefaults{})
		return Str(s), err
	})
	lib.Builtin("cookie_delete", func(c *Call, args []Value) (Value, error) {
		if len(args) < 1 {
			return Nil, cookieErr("cookie_delete requires 1 arguments")
		}
		opts, err := cookieOptions(args, 1, "cookie_delete")
		if err != nil {
			return Nil, err
		}
		s, err := serializeCookie(Display(args[0]), "", opts, deleteCookieDefaults)
		return Str(s), err
	})
	lib.Builtin("cookie_sign", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, cookieErr("cookie_sign requires 2 arguments")
		}
		v := Display(args[0])
		if strings.ContainsRune(v, ';') || hasASCIIControl(v) {
			return Nil, cookieErr("cookie_sign value must not contain separators or control characters")
		}
		return Str(v + "." + hmacB64URL(Display(args[1]), v)), nil
	})
	lib.Builtin("cookie_verify", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, cookieErr("cookie_verify requires 2 arguments")
		}
		signed := Display(args[0])
		res := func(ok bool, value Value, e string) Value {
			d := NewDict(3)
			d.Set("ok", Bool(ok))
			d.Set("value", value)
			d.Set("error", Nil)
			if e != "" {
				d.Set("error", Str(e))
			}
			return DictValue(d)
		}
		i := strings.LastIndexByte(signed, '.')
		if i < 0 {
			return res(false, Nil, "malformed"), nil
		}
		value, sig := signed[:i], signed[i+1:]
		if !constantEq(sig, hmacB64URL(Display(args[1]), value)) {
			return res(false, Nil, "invalid_signature"), nil
		}
		return res(true, Str(value), ""), nil
	})
	lib.Builtin("session_sign", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, cookieErr("session_sign requires 2 arguments")
		}
		return Str(sessionSign(args[0], Display(args[1]))), nil
	})
	lib.Builtin("session_verify", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, cookieErr("session_verify requires 2 arguments")
		}
		return sessionVerify(Display(args[0]), Display(args[1])), nil
	})
	lib.Builtin("session_cookie", func(c *Call, args []Value) (Value, error) {
		if len(args) < 3 {
			return Nil, cookieErr("session_cookie requires 3 arguments")
		}
		opts, err := cookieOptions(args, 3, "session_cookie")
		if err != nil {
			return Nil, err
		}
		s, err := serializeCookie(Display(args[0]), sessionSign(args[1], Display(args[2])), opts, sessionCookieDefaults)
		return Str(s), err
	})
	lib.Builtin("session_from_cookies", func(c *Call, args []Value) (Value, error) {
		if len(args) < 3 {
			return Nil, cookieErr("session_from_cookies requires 3 arguments")
		}
		parsed, err := cookieParse(args[0])
		if err != nil {
			return Nil, err
		}
		cookies, _ := parsed.r.(*Dict).Get("cookies")
		tok, ok := cookies.r.(*Dict).Get(Display(args[1]))
		if !ok {
			return sessionResult(false, Nil, "missing_cookie"), nil
		}
		return sessionVerify(Display(tok), Display(args[2])), nil
	})
	lib.Builtin("cookie_round_trip", cookieRoundTrip)
}

func hasASCIIControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

func hmacB64URL(key, msg string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func constantEq(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func validCookieName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

func validCookieValue(v string) bool {
	return !hasASCIIControl(v) && !strings.ContainsAny(v, ";,\\\" ")
}

func cookieOptions(args []Value, i int, fn string) (*Dict, error) {
	switch v := Arg(args, i); v.k {
	case KindNil:
		return nil, nil
	case KindDict:
		return v.r.(*Dict), nil
	default:
		return nil, cookieErr("%s: options must be a dict, got %s", fn, v.TypeName())
	}
}

// cookieOpt is the first of names present in opts.
func cookieOpt(opts *Dict, names ...string) (Value, bool) {
	if opts == nil {
		return Nil, false
	}
	for _, n := range names {
		if v, ok := opts.Get(n); ok {
			return v, true
		}
	}
	return Nil, false
}

func cookieOptString(opts *Dict, def string, names ...string) string {
	if v, ok := cookieOpt(opts, names...); ok && v.k != KindNil {
		return Display(v)
	}
	return def
}

// cookieDefaults are the attributes a serializer adds unless options
// say otherwise.
type cookieDefaults struct {
	path, sameSite, expires string
	httpOnly, secure        bool
	maxAge                  *int64
}

var zeroAge int64

var (
	sessionCookieDefaults = cookieDefaults{path: "/", sameSite: "Lax", httpOnly: true, secure: true}
	deleteCookieDefaults  = cookieDefaults{path: "/", sameSite: "Lax", httpOnly: true, secure: true,
		maxAge: &zeroAge, expires: "Thu, 01 Jan 1970 00:00:00 GMT"}
)

func validateCookieAttr(label, v string) error {
	if v == "" || hasASCIIControl(v) || strings.ContainsRune(v, ';') {
		return cookieErr("%s contains an invalid cookie attribute value", label)
	}
	return nil
}

func serializeCookie(name, value string, opts *Dict, def cookieDefaults) (string, error) {
	if !validCookieName(name) {
		return "", cookieErr("cookie name is empty or contains invalid characters")
	}
	if !validCookieValue(value) {
		return "", cookieErr("cookie value contains spaces, quotes, separators, or control characters; encode it first")
	}
	var b strings.Builder
	b.WriteString(name + "=" + value)
	attr := func(label, v string) error {
		if v == "" {
			return nil
		}
		if err := validateCookieAttr(label, v); err != nil {
			return err
		}
		b.WriteString("; " + label + "=" + v)
		return nil
	}
	if err := attr("Path", cookieOptString(opts, def.path, "path", "Path")); err != nil {
		return "", err
	}
	if err := attr("Domain", cookieOptString(opts, "", "domain", "Domain")); err != nil {
		return "", err
	}
	if v, ok := cookieOpt(opts, "max_age", "Max-Age", "maxAge"); ok && v.k != KindNil {
		if v.k != KindInt {
			return "", cookieErr("option max_age must be an int, got %s", v.TypeName())
		}
		b.WriteString("; Max-Age=" + strconv.FormatInt(v.AsInt(), 10))
	} else if def.maxAge != nil {
		b.WriteString("; Max-Age=" + strconv.FormatInt(*def.maxAge, 10))
	}
	if err := attr("Expires", cookieOptString(opts, def.expires, "expires", "Expires")); err != nil {
		return "", err
	}
	flag := func(d bool, names ...string) bool {
		if v, ok := cookieOpt(opts, names...); ok {
			return v.Truthy()
		}
		return d
	}
	httpOnly := flag(def.httpOnly, "http_only", "HttpOnly", "httponly")
	secure := flag(def.secure, "secure", "Secure")
	sameSite := cookieOptString(opts, def.sameSite, "same_site", "SameSite", "sameSite")
	if sameSite != "" {
		switch strings.ToLower(sameSite) {
		case "lax":
			sameSite = "Lax"
		case "strict":
			sameSite = "Strict"
		case "none":
			sameSite = "None"
		default:
			return "", cookieErr("same_site must be one of Lax, Strict, or None")
		}
	}
	if sameSite == "None" && !secure {
		return "", cookieErr("SameSite=None requires Secure")
	}
	if httpOnly {
		b.WriteString("; HttpOnly")
	}
	if secure {
		b.WriteString("; Secure")
	}
	if sameSite != "" {
		b.WriteString("; SameSite=" + sameSite)
	}
	return b.String(), nil
}

// cookieHeaders lists the Cookie header values of v: a string, a list of
// strings, or a headers dict (its "cookie" entries, any case).
func cookieHeaders(v Value, header string) ([]string, error) {
	switch v.k {
	case KindNil:
		return nil, nil
	case KindString:
		return []string{v.r.(string)}, nil
	case KindList:
		var out []string
		for _, it := range v.r.(*List).items {
			if it.k != KindString {
				return nil, cookieErr("%s list entries must be strings, got %s", header, it.TypeName())
			}
			out = append(out, it.r.(string))
		}
		return out, nil
	case KindDict:
		d := v.r.(*Dict)
		var out []string
		for _, k := range d.Keys() {
			if !strings.EqualFold(k, header) {
				continue
			}
			x, _ := d.Get(k)
			sub, err := cookieHeaders(x, header)
			if err != nil || x.k == KindDict {
				return nil, cookieErr("%s header must be a string or list, got %s", header, x.TypeName())
			}
			out = append(out, sub...)
		}
		return out, nil
	}
	return nil, cookieErr("%s headers must be a string, list, dict, or nil; got %s", header, v.TypeName())
}

func cookieParse(v Value) (Value, error) {
	headers, err := cookieHeaders(v, "cookie")
	if err != nil {
		return Nil, err
	}
	cookies := NewDict(4)
	values := map[string][]string{}
	var names []string
	var pairs, invalid []Value
	bad := func(seg, reason string) {
		d := NewDict(2)
		d.Set("segment", Str(seg))
		d.Set("reason", Str(reason))
		invalid = append(invalid, DictValue(d))
	}
	for _, h := range headers {
		for seg := range strings.SplitSeq(h, ";") {
			seg = strings.Trim(seg, " \t")
			if seg == "" {
				continue
			}
			name, value, ok := strings.Cut(seg, "=")
			if !ok {
				bad(seg, "missing '='")
				continue
			}
			name = strings.Trim(name, " \t")
			if !validCookieName(name) {
				bad(seg, "invalid name")
				continue
			}
			value = strings.Trim(value, " \t")
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			if hasASCIIControl(value) || strings.ContainsRune(value, ';') {
				bad(seg, "invalid value")
				continue
			}
			if !cookies.Has(name) {
				cookies.Set(name, Str(value))
				names = append(names, name)
			}
			values[name] = append(values[name], value)
			p := NewDict(2)
			p.Set("name", Str(name))
			p.Set("value", Str(value))
			pairs = append(pairs, DictValue(p))
		}
	}
	dups := NewDict(0)
	for _, n := range names {
		if vs := values[n]; len(vs) > 1 {
			items := make([]Value, len(vs))
			for i, s := range vs {
				items[i] = Str(s)
			}
			dups.Set(n, NewListValue(items))
		}
	}
	d := NewDict(4)
	d.Set("cookies", DictValue(cookies))
	d.Set("pairs", NewListValue(pairs))
	d.Set("duplicates", DictValue(dups))
	d.Set("invalid", NewListValue(invalid))
	return DictValue(d), nil
}

func sessionSign(payload Value, secret string) string {
	var b strings.Builder
	writeJSON(&b, payload, 0)
	enc := base64.RawURLEncoding.EncodeToString([]byte(b.String()))
	return "v1." + enc + "." + hmacB64URL(secret, enc)
}

func sessionResult(ok bool, payload Value, e string) Value {
	d := NewDict(3)
	d.Set("ok", Bool(ok))
	d.Set("payload", payload)
	d.Set("error", Nil)
	if e != "" {
		d.Set("error", Str(e))
	}
	return DictValue(d)
}

func sessionVerify(token, secret string) Value {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] != "v1" {
		return sessionResult(false, Nil, "malformed")
	}
	if !constantEq(parts[2], hmacB64URL(secret, parts[1])) {
		return sessionResult(false, Nil, "invalid_signature")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return sessionResult(false, Nil, "malformed_payload")
	}
	v, err := ParseJSON(string(raw))
	if err != nil {
		return sessionResult(false, Nil, "malformed_payload")
	}
	return sessionResult(true, v, "")
}

// cookieRoundTrip is cookie_round_trip([request_cookies,] set_cookies):
// the cookies a client holds after applying the Set-Cookie headers (a
// Max-Age <= 0 or a past Expires deletes).
func cookieRoundTrip(c *Call, args []Value) (Value, error) {
	if len(args) < 1 {
		return Nil, cookieErr("cookie_round_trip requires 1 arguments")
	}
	req, set := Nil, args[0]
	if len(args) > 1 {
		req, set = args[0], args[1]
	}
	parsed, err := cookieParse(req)
	if err != nil {
		return Nil, err
	}
	held, _ := parsed.r.(*Dict).Get("cookies")
	jar := NewDict(4)
	for _, k := range held.r.(*Dict).Keys() {
		v, _ := held.r.(*Dict).Get(k)
		jar.Set(k, Str(Display(v)))
	}
	headers, err := cookieHeaders(set, "set-cookie")
	if err != nil {
		return Nil, err
	}
	now := c.th.in.host.Now()
	for _, h := range headers {
		segs := strings.Split(h, ";")
		name, value, ok := strings.Cut(strings.Trim(segs[0], " \t"), "=")
		if !ok || !validCookieName(name) {
			continue
		}
		del := false
		for _, a := range segs[1:] {
			an, av, _ := strings.Cut(strings.Trim(a, " \t"), "=")
			switch {
			case strings.EqualFold(an, "Max-Age"):
				if n, err := strconv.ParseInt(strings.TrimSpace(av), 10, 64); err == nil && n <= 0 {
					del = true
				}
			case strings.EqualFold(an, "Expires"):
				if t, err := http.ParseTime(strings.TrimSpace(av)); err == nil && !t.After(now) {
					del = true
				}
			}
		}
		if del {
			jar.Delete(name)
		} else {
			jar.Set(name, Str(value))
		}
	}
	parts := make([]string, 0, jar.Len())
	for _, k := range jar.Keys() {
		v, _ := jar.Get(k)
		parts = append(parts, k+"="+Display(v))
	}
	d := NewDict(2)
	d.Set("cookie_header", Str(strings.Join(parts, "; ")))
	d.Set("cookies", DictValue(jar))
	return DictValue(d), nil
}
