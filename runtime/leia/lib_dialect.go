package leia

import (
	"fmt"
	"html"
	"net/textproto"
	"sort"
	"strings"
	"time"
)

// The data dialects. Each decodes the text of tag`...` (after ${}
// interpolation) into a value:
//
//	json      one JSON document
//	jsonl     one JSON document per non-empty line, as a list
//	ini       key = value lines and [section] headers, as nested tables of strings
//	env       KEY=VALUE lines (# comments, optional export, quotes), as a table
//	headers   Name: value lines, keyed by canonical name (Content-Type);
//	          a repeated header gives a list (also http_headers)
//	cookie    name=value; pairs, a repeated name gives a list (also cookies)
//	duration  a Go-style duration (1m30s, 250ms) or a number of seconds,
//	          as {seconds, milliseconds, nanoseconds, text}
//	html_escape  the text with & < > " ' replaced by HTML character
//	          references, safe inside an element or a quoted attribute
//
// headers, cookie and duration also encode: dialect.eval(tag, value,
// {mode: "encode"}) turns a table back into the text.
//
// A malformed body is a recoverable error: nil and {kind: "dialect",
// message} for tag`...`, a raised error for tag!`...`.
var dataDialects = []Dialect{
	{Name: "json", Doc: "one JSON document", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return DecodeJSON(s) }, Encode: encodeJSONDialect},
	{Name: "jsonl", Doc: "JSON lines, as a list", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) {
		out := NewTable(0, 0)
		for i, line := range strings.Split(s, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			v, err := DecodeJSON(line)
			if err != nil {
				return Nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			out.Append(v)
		}
		return TableValue(out), nil
	}, Encode: encodeJSONLines},
	{Name: "html_escape", Doc: "text escaped for HTML", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return String(html.EscapeString(s)), nil }},
	{Name: "ini", Doc: "INI sections and keys", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeINI(s) }},
	{Name: "env", Doc: "KEY=VALUE lines", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeEnv(s) }},
	{Name: "headers", Doc: "HTTP-style header lines", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeHeaders(s) }, Encode: encodeHeaders},
	{Name: "cookie", Doc: "cookie pairs", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeCookies(s) }, Encode: encodeCookies},
	{Name: "duration", Doc: "a duration", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) {
		d, ok := parseDuration(strings.TrimSpace(s))
		if !ok {
			return Nil, fmt.Errorf("invalid duration %q", strings.TrimSpace(s))
		}
		return durationValue(d), nil
	}, Encode: func(t *Thread, v Value, _ DialectOptions) (Value, error) {
		secs, ok := durationSeconds(v)
		if !ok {
			return Nil, fmt.Errorf("duration: want seconds, a duration table or {milliseconds: n}")
		}
		return String(time.Duration(secs * float64(time.Second)).String()), nil
	}},
}

// dialectAliases are second names of data dialects.
var dialectAliases = map[string]string{"http_headers": "headers", "cookies": "cookie"}

// durationValue is a decoded duration: its length in several units and
// its canonical text.
func durationValue(secs float64) Value {
	t := NewTable(0, 4)
	t.SetStr("seconds", Float(secs))
	t.SetStr("milliseconds", Int(int64(secs*1000)))
	t.SetStr("nanoseconds", Int(int64(secs*1e9)))
	t.SetStr("text", String(time.Duration(secs*float64(time.Second)).String()))
	return TableValue(t)
}

func durationSeconds(v Value) (float64, bool) {
	if n, ok := toNumber(v); ok {
		return n.AsFloat(), true
	}
	t := v.Table()
	if t == nil {
		return 0, false
	}
	for _, u := range []struct {
		key   string
		scale float64
	}{{"seconds", 1}, {"milliseconds", 1e-3}, {"nanoseconds", 1e-9}, {"minutes", 60}, {"hours", 3600}} {
		if n, ok := toNumber(t.GetStr(u.key)); ok {
			return n.AsFloat() * u.scale, true
		}
	}
	return 0, false
}

// addValue adds v under key k: a second value turns the entry into a list.
func addValue(t *Table, k string, v Value) {
	switch prev := t.GetStr(k); {
	case prev.k == KindNil:
		t.SetStr(k, v)
	case prev.k == KindTable:
		prev.Table().Append(v)
	default:
		t.SetStr(k, TableValue(NewList(prev, v)))
	}
}

func decodeCookies(s string) (Value, error) {
	out := NewTable(0, 4)
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return Nil, fmt.Errorf("cookie: expected name=value, got %q", part)
		}
		addValue(out, strings.TrimSpace(k), String(strings.Trim(strings.TrimSpace(v), `"`)))
	}
	return TableValue(out), nil
}

// sortedEntries lists a table's string-keyed entries by key; list values
// give one entry per element.
func sortedEntries(t *Thread, v Value) ([][2]string, error) {
	tb := v.Table()
	if tb == nil {
		return nil, fmt.Errorf("want a table, got %s", v.TypeName())
	}
	var out [][2]string
	tb.Iter(func(k, x Value) bool {
		key := t.tostring(k, -1)
		if xt := x.Table(); xt != nil {
			for _, e := range xt.arr {
				out = append(out, [2]string{key, t.tostring(e, -1)})
			}
		} else {
			out = append(out, [2]string{key, t.tostring(x, -1)})
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}

func encodeHeaders(t *Thread, v Value, _ DialectOptions) (Value, error) {
	es, err := sortedEntries(t, v)
	if err != nil {
		return Nil, err
	}
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s: %s\r\n", textproto.CanonicalMIMEHeaderKey(e[0]), e[1])
	}
	return String(b.String()), nil
}

func encodeCookies(t *Thread, v Value, _ DialectOptions) (Value, error) {
	es, err := sortedEntries(t, v)
	if err != nil {
		return Nil, err
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e[0] + "=" + e[1]
	}
	return String(strings.Join(parts, "; ")), nil
}

func decodeEnv(s string) (Value, error) {
	out := NewTable(0, 8)
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return Nil, fmt.Errorf("line %d: expected KEY=VALUE", i+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			q := v[0]
			v = v[1 : len(v)-1]
			if q == '"' {
				v = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(v)
			}
		} else if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		out.SetStr(strings.TrimSpace(k), String(v))
	}
	return TableValue(out), nil
}

func decodeHeaders(s string) (Value, error) {
	out := NewTable(0, 8)
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return Nil, fmt.Errorf("line %d: expected Name: value", i+1)
		}
		addValue(out, textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k)), String(strings.TrimSpace(v)))
	}
	return TableValue(out), nil
}

// openDialects registers the data dialects and the `dialect` module
// (dialect.eval / eval_block / eval_raw / interpolate / names), the calls
// tagged forms lower to in the spec.
func openDialects(in *Interp) {
	for _, d := range dataDialects {
		in.RegisterDialect(d)
	}
	in.RegisterDialect(templateDialect)
	for alias, name := range dialectAliases {
		d := in.dialects[name]
		d.Name = alias
		in.RegisterDialect(d)
	}
	opts := func(v Value) DialectOptions {
		o := DialectOptions{}
		if t := v.Table(); t != nil {
			o.FailFast = t.GetStr("fail_fast").Truthy()
		}
		return o
	}
	newModule(in, "dialect", map[string]NativeFunc{
		"eval": func(t *Thread, a []Value) ([]Value, error) {
			tag, err := CheckString(a, 0, "eval")
			if err != nil {
				return nil, err
			}
			o := opts(Arg(a, 2))
			mode := ""
			if ot := Arg(a, 2).Table(); ot != nil {
				mode = ot.GetStr("mode").AsString()
			}
			if mode == "encode" || Arg(a, 1).k == KindTable {
				return t.evalDialectEncode(tag, Arg(a, 1), o, -1), nil
			}
			text, err := CheckString(a, 1, "eval")
			if err != nil {
				return nil, err
			}
			return t.evalDialectText(tag, []string{text}, nil, o, -1), nil
		},
		"eval_block": func(t *Thread, a []Value) ([]Value, error) {
			tag, err := CheckString(a, 0, "eval_block")
			if err != nil {
				return nil, err
			}
			fields, err := CheckTable(a, 1, "eval_block")
			if err != nil {
				return nil, err
			}
			return t.evalDialectBlock(tag, fields, opts(Arg(a, 2)), -1), nil
		},
		"eval_raw": func(t *Thread, a []Value) ([]Value, error) {
			tag, err := CheckString(a, 0, "eval_raw")
			if err != nil {
				return nil, err
			}
			body := Arg(a, 1)
			if _, registered := t.in.dialects[tag]; tag == "quote" || !registered {
				// A tag no dialect handles gives the generic raw value:
				// the body as written, with its kind.
				q := NewTable(0, 4)
				q.SetStr("dialect", String(tag))
				q.SetStr("body", body)
				q.SetStr("kind", String(body.TypeName()))
				if o := Arg(a, 2); o.k == KindTable {
					q.SetStr("options", o)
				}
				return t.Ret1(TableValue(q)), nil
			}
			fields := NewTable(0, 1)
			fields.SetStr("body", body)
			return t.evalDialectBlock(tag, fields, opts(Arg(a, 2)), -1), nil
		},
		"interpolate": func(t *Thread, a []Value) ([]Value, error) {
			tag, err := CheckString(a, 0, "interpolate")
			if err != nil {
				return nil, err
			}
			parts, err := CheckTable(a, 1, "interpolate")
			if err != nil {
				return nil, err
			}
			vals := Arg(a, 2).Table()
			var pieces []string
			for _, p := range parts.arr {
				pieces = append(pieces, t.tostring(p, -1))
			}
			var values []Value
			if vals != nil {
				for i := int64(1); i < int64(len(pieces)); i++ {
					values = append(values, vals.GetInt(i))
				}
			}
			d := t.dialect(tag, -1)
			if d.Interpolate != nil {
				s, err := d.Interpolate(t, pieces, values)
				return strResult(t, s, err)
			}
			var b strings.Builder
			for i, p := range pieces {
				b.WriteString(p)
				if i < len(values) {
					b.WriteString(t.tostring(values[i], -1))
				}
			}
			return t.Ret1(String(b.String())), nil
		},
		"names": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(FromGo(t.in.DialectNames())), nil
		},
	})
}

// encodeJSONDialect is json's encode mode: one compact JSON document.
func encodeJSONDialect(t *Thread, v Value, _ DialectOptions) (Value, error) {
	s, err := EncodeJSON(t, v, "")
	if err != nil {
		return Nil, err
	}
	return String(s), nil
}

// encodeJSONLines is jsonl's encode mode: each element of a list as one
// compact JSON document on its own newline-terminated line.
func encodeJSONLines(t *Thread, v Value, _ DialectOptions) (Value, error) {
	list := v.Table()
	if list == nil {
		return Nil, fmt.Errorf("jsonl encodes a list, got %s", v.TypeName())
	}
	var b strings.Builder
	for i := int64(1); i <= int64(list.Len()); i++ {
		s, err := EncodeJSON(t, list.GetInt(i), "")
		if err != nil {
			return Nil, fmt.Errorf("element %d: %v", i, err)
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return String(b.String()), nil
}
