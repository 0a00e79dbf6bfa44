package http

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	nethttp "net/http"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/runtime/harn"
)

// The cookie family: Cookie header parsing, Set-Cookie serialization
// with secure defaults for sessions and deletions, HMAC-signed cookie
// values and "v1.<payload>.<sig>" session tokens, and a client-side round
// trip that applies Set-Cookie headers to a Cookie header. Errors read
// "cookie: ..." as upstream's do.

func cookieErr(format string, a ...any) error {
	return harn.Errorf("%s", "cookie: "+fmt.Sprintf(format, a...))
}

func installCookies(lib *harn.Library) {
	lib.Builtin("cookie_parse", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 1 {
			return harn.Nil, cookieErr("cookie_parse requires 1 arguments")
		}
		return cookieParse(args[0])
	})
	lib.Builtin("cookie_serialize", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, cookieErr("cookie_serialize requires 2 arguments")
		}
		opts, err := cookieOptions(args, 2, "cookie_serialize")
		if err != nil {
			return harn.Nil, err
		}
		s, err := serializeCookie(harn.Display(args[0]), harn.Display(args[1]), opts, cookieDefaults{})
		return harn.Str(s), err
	})
	lib.Builtin("cookie_delete", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 1 {
			return harn.Nil, cookieErr("cookie_delete requires 1 arguments")
		}
		opts, err := cookieOptions(args, 1, "cookie_delete")
		if err != nil {
			return harn.Nil, err
		}
		s, err := serializeCookie(harn.Display(args[0]), "", opts, deleteCookieDefaults)
		return harn.Str(s), err
	})
	lib.Builtin("cookie_sign", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, cookieErr("cookie_sign requires 2 arguments")
		}
		v := harn.Display(args[0])
		if strings.ContainsRune(v, ';') || hasASCIIControl(v) {
			return harn.Nil, cookieErr("cookie_sign value must not contain separators or control characters")
		}
		return harn.Str(v + "." + hmacB64URL(harn.Display(args[1]), v)), nil
	})
	lib.Builtin("cookie_verify", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, cookieErr("cookie_verify requires 2 arguments")
		}
		signed := harn.Display(args[0])
		res := func(ok bool, value harn.Value, e string) harn.Value {
			d := harn.NewDict(3)
			d.Set("ok", harn.Bool(ok))
			d.Set("value", value)
			d.Set("error", harn.Nil)
			if e != "" {
				d.Set("error", harn.Str(e))
			}
			return harn.DictValue(d)
		}
		i := strings.LastIndexByte(signed, '.')
		if i < 0 {
			return res(false, harn.Nil, "malformed"), nil
		}
		value, sig := signed[:i], signed[i+1:]
		if !constantEq(sig, hmacB64URL(harn.Display(args[1]), value)) {
			return res(false, harn.Nil, "invalid_signature"), nil
		}
		return res(true, harn.Str(value), ""), nil
	})
	lib.Builtin("session_sign", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, cookieErr("session_sign requires 2 arguments")
		}
		return harn.Str(sessionSign(args[0], harn.Display(args[1]))), nil
	})
	lib.Builtin("session_verify", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, cookieErr("session_verify requires 2 arguments")
		}
		return sessionVerify(harn.Display(args[0]), harn.Display(args[1])), nil
	})
	lib.Builtin("session_cookie", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 3 {
			return harn.Nil, cookieErr("session_cookie requires 3 arguments")
		}
		opts, err := cookieOptions(args, 3, "session_cookie")
		if err != nil {
			return harn.Nil, err
		}
		s, err := serializeCookie(harn.Display(args[0]), sessionSign(args[1], harn.Display(args[2])), opts, sessionCookieDefaults)
		return harn.Str(s), err
	})
	lib.Builtin("session_from_cookies", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 3 {
			return harn.Nil, cookieErr("session_from_cookies requires 3 arguments")
		}
		parsed, err := cookieParse(args[0])
		if err != nil {
			return harn.Nil, err
		}
		cookies, _ := parsed.AsDict().Get("cookies")
		tok, ok := cookies.AsDict().Get(harn.Display(args[1]))
		if !ok {
			return sessionResult(false, harn.Nil, "missing_cookie"), nil
		}
		return sessionVerify(harn.Display(tok), harn.Display(args[2])), nil
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

func cookieOptions(args []harn.Value, i int, fn string) (*harn.Dict, error) {
	switch v := harn.Arg(args, i); v.Kind() {
	case harn.KindNil:
		return nil, nil
	case harn.KindDict:
		return v.AsDict(), nil
	default:
		return nil, cookieErr("%s: options must be a dict, got %s", fn, v.TypeName())
	}
}

// cookieOpt is the first of names present in opts.
func cookieOpt(opts *harn.Dict, names ...string) (harn.Value, bool) {
	if opts == nil {
		return harn.Nil, false
	}
	for _, n := range names {
		if v, ok := opts.Get(n); ok {
			return v, true
		}
	}
	return harn.Nil, false
}

func cookieOptString(opts *harn.Dict, def string, names ...string) string {
	if v, ok := cookieOpt(opts, names...); ok && v.Kind() != harn.KindNil {
		return harn.Display(v)
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

func serializeCookie(name, value string, opts *harn.Dict, def cookieDefaults) (string, error) {
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
	if v, ok := cookieOpt(opts, "max_age", "Max-Age", "maxAge"); ok && v.Kind() != harn.KindNil {
		if v.Kind() != harn.KindInt {
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
func cookieHeaders(v harn.Value, header string) ([]string, error) {
	switch v.Kind() {
	case harn.KindNil:
		return nil, nil
	case harn.KindString:
		return []string{v.AsString()}, nil
	case harn.KindList:
		var out []string
		for _, it := range v.AsList().Items() {
			if it.Kind() != harn.KindString {
				return nil, cookieErr("%s list entries must be strings, got %s", header, it.TypeName())
			}
			out = append(out, it.AsString())
		}
		return out, nil
	case harn.KindDict:
		d := v.AsDict()
		var out []string
		for _, k := range d.Keys() {
			if !strings.EqualFold(k, header) {
				continue
			}
			x, _ := d.Get(k)
			sub, err := cookieHeaders(x, header)
			if err != nil || x.Kind() == harn.KindDict {
				return nil, cookieErr("%s header must be a string or list, got %s", header, x.TypeName())
			}
			out = append(out, sub...)
		}
		return out, nil
	}
	return nil, cookieErr("%s headers must be a string, list, dict, or nil; got %s", header, v.TypeName())
}

func cookieParse(v harn.Value) (harn.Value, error) {
	headers, err := cookieHeaders(v, "cookie")
	if err != nil {
		return harn.Nil, err
	}
	cookies := harn.NewDict(4)
	values := map[string][]string{}
	var names []string
	var pairs, invalid []harn.Value
	bad := func(seg, reason string) {
		d := harn.NewDict(2)
		d.Set("segment", harn.Str(seg))
		d.Set("reason", harn.Str(reason))
		invalid = append(invalid, harn.DictValue(d))
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
				cookies.Set(name, harn.Str(value))
				names = append(names, name)
			}
			values[name] = append(values[name], value)
			p := harn.NewDict(2)
			p.Set("name", harn.Str(name))
			p.Set("value", harn.Str(value))
			pairs = append(pairs, harn.DictValue(p))
		}
	}
	dups := harn.NewDict(0)
	for _, n := range names {
		if vs := values[n]; len(vs) > 1 {
			items := make([]harn.Value, len(vs))
			for i, s := range vs {
				items[i] = harn.Str(s)
			}
			dups.Set(n, harn.NewListValue(items))
		}
	}
	d := harn.NewDict(4)
	d.Set("cookies", harn.DictValue(cookies))
	d.Set("pairs", harn.NewListValue(pairs))
	d.Set("duplicates", harn.DictValue(dups))
	d.Set("invalid", harn.NewListValue(invalid))
	return harn.DictValue(d), nil
}

func sessionSign(payload harn.Value, secret string) string {
	enc := base64.RawURLEncoding.EncodeToString([]byte(harn.JSON(payload)))
	return "v1." + enc + "." + hmacB64URL(secret, enc)
}

func sessionResult(ok bool, payload harn.Value, e string) harn.Value {
	d := harn.NewDict(3)
	d.Set("ok", harn.Bool(ok))
	d.Set("payload", payload)
	d.Set("error", harn.Nil)
	if e != "" {
		d.Set("error", harn.Str(e))
	}
	return harn.DictValue(d)
}

func sessionVerify(token, secret string) harn.Value {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] != "v1" {
		return sessionResult(false, harn.Nil, "malformed")
	}
	if !constantEq(parts[2], hmacB64URL(secret, parts[1])) {
		return sessionResult(false, harn.Nil, "invalid_signature")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return sessionResult(false, harn.Nil, "malformed_payload")
	}
	v, err := harn.ParseJSON(string(raw))
	if err != nil {
		return sessionResult(false, harn.Nil, "malformed_payload")
	}
	return sessionResult(true, v, "")
}

// cookieRoundTrip is cookie_round_trip([request_cookies,] set_cookies):
// the cookies a client holds after applying the Set-Cookie headers (a
// Max-Age <= 0 or a past Expires deletes).
func cookieRoundTrip(c *harn.Call, args []harn.Value) (harn.Value, error) {
	if len(args) < 1 {
		return harn.Nil, cookieErr("cookie_round_trip requires 1 arguments")
	}
	req, set := harn.Nil, args[0]
	if len(args) > 1 {
		req, set = args[0], args[1]
	}
	parsed, err := cookieParse(req)
	if err != nil {
		return harn.Nil, err
	}
	held, _ := parsed.AsDict().Get("cookies")
	jar := harn.NewDict(4)
	for _, k := range held.AsDict().Keys() {
		v, _ := held.AsDict().Get(k)
		jar.Set(k, harn.Str(harn.Display(v)))
	}
	headers, err := cookieHeaders(set, "set-cookie")
	if err != nil {
		return harn.Nil, err
	}
	now := c.Interp().Host().Now()
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
				if t, err := nethttp.ParseTime(strings.TrimSpace(av)); err == nil && !t.After(now) {
					del = true
				}
			}
		}
		if del {
			jar.Delete(name)
		} else {
			jar.Set(name, harn.Str(value))
		}
	}
	parts := make([]string, 0, jar.Len())
	for _, k := range jar.Keys() {
		v, _ := jar.Get(k)
		parts = append(parts, k+"="+harn.Display(v))
	}
	d := harn.NewDict(2)
	d.Set("cookie_header", harn.Str(strings.Join(parts, "; ")))
	d.Set("cookies", harn.DictValue(jar))
	return harn.DictValue(d), nil
}
