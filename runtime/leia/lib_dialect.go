package leia

import (
	"fmt"
	"strings"
)

// The data dialects. Each decodes the text of tag`...` (after ${}
// interpolation) into a value:
//
//	json      one JSON document
//	jsonl     one JSON document per non-empty line, as a list
//	ini       key = value lines and [section] headers, as nested tables of strings
//	env       KEY=VALUE lines (# comments, optional export, quotes), as a table
//	headers   Name: value lines, as a table keyed by lower-case name
//	duration  a Go-style duration (1m30s, 250ms) or a number, in seconds
//
// A malformed body is a recoverable error: nil and {kind: "dialect",
// message} for tag`...`, a raised error for tag!`...`.
var dataDialects = []Dialect{
	{Name: "json", Doc: "one JSON document", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return DecodeJSON(s) }},
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
	}},
	{Name: "ini", Doc: "INI sections and keys", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeINI(s) }},
	{Name: "env", Doc: "KEY=VALUE lines", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeEnv(s) }},
	{Name: "headers", Doc: "HTTP-style header lines", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return decodeHeaders(s) }},
	{Name: "duration", Doc: "a duration in seconds", Text: func(t *Thread, s string, _ DialectOptions) (Value, error) {
		d, ok := parseDuration(strings.TrimSpace(s))
		if !ok {
			return Nil, fmt.Errorf("invalid duration %q", strings.TrimSpace(s))
		}
		return Float(d), nil
	}},
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
		key := strings.ToLower(strings.TrimSpace(k))
		val := strings.TrimSpace(v)
		if prev := out.GetStr(key); prev.k == KindString {
			val = prev.AsString() + ", " + val
		}
		out.SetStr(key, String(val))
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
			text, err := CheckString(a, 1, "eval")
			if err != nil {
				return nil, err
			}
			return t.evalDialectText(tag, []string{text}, nil, opts(Arg(a, 2)), -1), nil
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
			fn, err := CheckFunction(a, 1, "eval_raw")
			if err != nil {
				return nil, err
			}
			if tag == "quote" {
				q := NewTable(0, 4)
				q.SetStr("dialect", String("quote"))
				q.SetStr("body", fn)
				q.SetStr("kind", String("function"))
				if o := Arg(a, 2); o.k == KindTable {
					q.SetStr("options", o)
				}
				return t.Ret1(TableValue(q)), nil
			}
			fields := NewTable(0, 1)
			fields.SetStr("body", fn)
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
