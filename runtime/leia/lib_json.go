package leia

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON: decode maps objects to tables (keys in document order), arrays to
// lists, null to nil, integers to integers and other numbers to floats.
// encode writes tables with only a sequence part as arrays and others as
// objects with sorted keys; an empty table is {}.

const maxJSONDepth = 200

func openJSON(in *Interp) {
	j := in.moduleTable("json", 4)
	j.SetStr("decode", NewNative("decode", jsonDecodeNative))
	j.SetStr("parse", NewNative("parse", jsonDecodeNative))
	j.SetStr("encode", NewNative("encode", jsonEncodeNative))
	j.SetStr("stringify", NewNative("stringify", jsonEncodeNative))
	j.SetStr("pretty", NewNative("pretty", func(t *Thread, a []Value) ([]Value, error) {
		s, err := EncodeJSON(t, Arg(a, 0), "  ")
		if err != nil {
			return t.Ret2(Nil, String(err.Error())), nil
		}
		return t.Ret1(String(s)), nil
	}))
	in.registerLib("json", j)
}

// decodeSpec unpacks json.decode and json.parse, which share one
// implementation and one name in messages ("decode").
var decodeSpec = specOf("json.decode")

func jsonDecodeNative(t *Thread, a []Value) ([]Value, error) {
	var s string
	if err := decodeSpec.unpack(a, &s); err != nil {
		return nil, err
	}
	v, err := DecodeJSON(s)
	if err != nil {
		return t.Ret2(Nil, String(err.Error())), nil
	}
	return t.Ret1(v), nil
}

func jsonEncodeNative(t *Thread, a []Value) ([]Value, error) {
	indent := ""
	switch o := Arg(a, 1); o.k {
	case KindString:
		indent = o.AsString()
	case KindInt:
		indent = strings.Repeat(" ", int(min(max(int64(o.n), 0), 16)))
	case KindTable:
		if v := o.Table().GetStr("indent"); v.k == KindString {
			indent = v.AsString()
		} else if v.k == KindInt {
			indent = strings.Repeat(" ", int(min(max(int64(v.n), 0), 16)))
		} else if v.Truthy() {
			indent = "  "
		}
	case KindBool:
		if o.AsBool() {
			indent = "  "
		}
	}
	s, err := EncodeJSON(t, Arg(a, 0), indent)
	if err != nil {
		return t.Ret2(Nil, String(err.Error())), nil
	}
	return t.Ret1(String(s)), nil
}

// DecodeJSON parses one JSON document.
func DecodeJSON(s string) (Value, error) {
	d := &jsonDecoder{s: s}
	d.ws()
	v, err := d.value(0)
	if err != nil {
		return Nil, err
	}
	d.ws()
	if d.i < len(d.s) {
		return Nil, d.errorf("unexpected %q after the value", d.s[d.i])
	}
	return v, nil
}

type jsonDecoder struct {
	s string
	i int
}

func (d *jsonDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("json: %s at offset %d", fmt.Sprintf(format, args...), d.i)
}

func (d *jsonDecoder) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (Value, error) {
	if depth > maxJSONDepth {
		return Nil, d.errorf("nesting too deep")
	}
	if d.i >= len(d.s) {
		return Nil, d.errorf("unexpected end of input")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		d.i++
		t := NewTable(0, 4)
		d.ws()
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return TableValue(t), nil
		}
		for {
			d.ws()
			if d.i >= len(d.s) || d.s[d.i] != '"' {
				return Nil, d.errorf("expected a string key")
			}
			k, err := d.str()
			if err != nil {
				return Nil, err
			}
			d.ws()
			if d.i >= len(d.s) || d.s[d.i] != ':' {
				return Nil, d.errorf("expected ':'")
			}
			d.i++
			d.ws()
			v, err := d.value(depth + 1)
			if err != nil {
				return Nil, err
			}
			t.SetStr(k, v)
			d.ws()
			if d.i < len(d.s) && d.s[d.i] == ',' {
				d.i++
				continue
			}
			if d.i < len(d.s) && d.s[d.i] == '}' {
				d.i++
				return TableValue(t), nil
			}
			return Nil, d.errorf("expected ',' or '}'")
		}
	case c == '[':
		d.i++
		t := NewTable(4, 0)
		d.ws()
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return TableValue(t), nil
		}
		n := int64(0)
		for {
			d.ws()
			v, err := d.value(depth + 1)
			if err != nil {
				return Nil, err
			}
			n++
			t.SetInt(n, v)
			d.ws()
			if d.i < len(d.s) && d.s[d.i] == ',' {
				d.i++
				continue
			}
			if d.i < len(d.s) && d.s[d.i] == ']' {
				d.i++
				return TableValue(t), nil
			}
			return Nil, d.errorf("expected ',' or ']'")
		}
	case c == '"':
		s, err := d.str()
		return String(s), err
	case c == 't' && strings.HasPrefix(d.s[d.i:], "true"):
		d.i += 4
		return True, nil
	case c == 'f' && strings.HasPrefix(d.s[d.i:], "false"):
		d.i += 5
		return False, nil
	case c == 'n' && strings.HasPrefix(d.s[d.i:], "null"):
		d.i += 4
		return Nil, nil
	case c == '-' || c >= '0' && c <= '9':
		st := d.i
		if d.s[d.i] == '-' {
			d.i++
		}
		isFloat := false
		for d.i < len(d.s) {
			ch := d.s[d.i]
			if ch >= '0' && ch <= '9' {
				d.i++
			} else if ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-' {
				isFloat = true
				d.i++
			} else {
				break
			}
		}
		num := d.s[st:d.i]
		if !isFloat {
			if n, err := strconv.ParseInt(num, 10, 64); err == nil {
				return Int(n), nil
			}
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return Nil, d.errorf("invalid number %q", num)
		}
		return Float(f), nil
	}
	return Nil, d.errorf("unexpected %q", d.s[d.i])
}

func (d *jsonDecoder) str() (string, error) {
	d.i++ // opening quote
	var b strings.Builder
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c == '\\':
			d.i++
			if d.i >= len(d.s) {
				return "", d.errorf("unterminated string")
			}
			e := d.s[d.i]
			d.i++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.errorf("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(d.s[d.i:], "\\u") {
					d.i += 2
					r2, ok := d.hex4()
					if !ok {
						return "", d.errorf("invalid \\u escape")
					}
					r = utf16.DecodeRune(r, r2)
				}
				b.WriteRune(r)
			default:
				return "", d.errorf("invalid escape \\%c", e)
			}
		case c < 0x20:
			return "", d.errorf("control character in string")
		default:
			b.WriteByte(c)
			d.i++
		}
	}
	return "", d.errorf("unterminated string")
}

func (d *jsonDecoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}

// EncodeJSON writes v as JSON; indent "" is compact.
func EncodeJSON(t *Thread, v Value, indent string) (string, error) {
	e := &jsonEncoder{t: t, indent: indent, seen: map[*Table]bool{}}
	if err := e.value(v, 0); err != nil {
		return "", err
	}
	return e.b.String(), nil
}

type jsonEncoder struct {
	t      *Thread
	b      strings.Builder
	indent string
	seen   map[*Table]bool
	// nodes counts the values visited; charged is the text already
	// charged to the run (a table may share itself: 2^100 leaves).
	nodes, charged int
}

func (e *jsonEncoder) nl(depth int) {
	if e.indent == "" {
		return
	}
	e.b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		e.b.WriteString(e.indent)
	}
}

func (e *jsonEncoder) value(v Value, depth int) error {
	if depth > maxJSONDepth {
		return fmt.Errorf("json: nesting too deep")
	}
	if e.nodes++; e.nodes%1024 == 0 && e.t != nil {
		e.t.charge(1024, -1)
		if grown := e.b.Len() - e.charged; grown >= chargeFrom {
			e.t.allocBytes(int64(grown), -1)
			e.charged = e.b.Len()
		}
	}
	switch v.k {
	case KindNil:
		e.b.WriteString("null")
	case KindBool:
		if v.AsBool() {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
	case KindInt:
		e.b.WriteString(strconv.FormatInt(int64(v.n), 10))
	case KindFloat:
		f := v.AsFloat()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("json: cannot encode %s", formatFloat(f))
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			e.b.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		} else {
			e.b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case KindString:
		writeJSONString(&e.b, v.AsString())
	case KindTable:
		tb := v.Table()
		if h := tb.meta.GetStr("__tojson"); h.k != KindNil {
			r := e.t.Call1(h, v)
			if r.k == KindString {
				e.b.WriteString(r.AsString())
				return nil
			}
			return e.value(r, depth+1)
		}
		if e.seen[tb] {
			return fmt.Errorf("json: cannot encode a table that contains itself")
		}
		e.seen[tb] = true
		defer delete(e.seen, tb)
		if tb.HashLen() == 0 && tb.Len() > 0 {
			e.b.WriteByte('[')
			for i, x := range tb.arr {
				if i > 0 {
					e.b.WriteByte(',')
				}
				e.nl(depth + 1)
				if err := e.value(x, depth+1); err != nil {
					return err
				}
			}
			e.nl(depth)
			e.b.WriteByte(']')
			return nil
		}
		type kv struct {
			k string
			v Value
		}
		var kvs []kv
		var bad error
		tb.Iter(func(k, x Value) bool {
			switch k.k {
			case KindString:
				kvs = append(kvs, kv{k.AsString(), x})
			case KindInt, KindFloat:
				kvs = append(kvs, kv{FormatNumber(k), x})
			default:
				bad = fmt.Errorf("json: cannot encode a table key of type %s", k.TypeName())
				return false
			}
			return true
		})
		if bad != nil {
			return bad
		}
		sort.Slice(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
		e.b.WriteByte('{')
		for i, p := range kvs {
			if i > 0 {
				e.b.WriteByte(',')
			}
			e.nl(depth + 1)
			writeJSONString(&e.b, p.k)
			e.b.WriteByte(':')
			if e.indent != "" {
				e.b.WriteByte(' ')
			}
			if err := e.value(p.v, depth+1); err != nil {
				return err
			}
		}
		if len(kvs) > 0 {
			e.nl(depth)
		}
		e.b.WriteByte('}')
	default:
		return fmt.Errorf("json: cannot encode a %s value", v.TypeName())
	}
	return nil
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if c < 0x20 {
					fmt.Fprintf(b, `\u%04x`, c)
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
