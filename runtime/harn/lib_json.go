package harn

import (
	"errors"
	"gopkg.in/yaml.v3"
	"time"

	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	toml "github.com/pelletier/go-toml/v2"
)

// Data builtins: JSON, TOML and CSV.

func installJson(lib *Library) {
	lib.Builtin("json_stringify", func(c *Call, args []Value) (Value, error) {
		return c.stringifyJSON("json_stringify", Arg(args, 0))
	})
	lib.Builtin("json_parse", WithText("json_parse", func(_ *Call, text string, _ []Value) (Value, error) {
		v, err := ParseJSON(text)
		if err != nil {
			return Nil, throwValue(Str("JSON parse error: " + err.Error()))
		}
		return v, nil
	}))
	lib.Builtin("json_extract", func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, throwValue(Str("json_extract requires at least 1 argument: text"))
		}
		v, err := ParseJSON(extractJSON(Display(args[0])))
		if err != nil {
			return Nil, throwValue(Str("json_extract: failed to parse JSON: " + err.Error()))
		}
		if len(args) < 2 {
			return v, nil
		}
		key := Display(args[1])
		if v.k != KindDict {
			return Nil, throwValue(Str("json_extract: parsed value is not a dict, cannot extract key"))
		}
		x, ok := v.r.(*Dict).Get(key)
		if !ok {
			return Nil, throwValue(Str("json_extract: key '" + key + "' not found"))
		}
		return x, nil
	})
	lib.Builtin("json_pointer", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		for _, tok := range pointerTokens(Display(Arg(args, 1))) {
			switch v.k {
			case KindDict:
				v, _ = v.r.(*Dict).Get(tok)
			case KindList:
				i, err := strconv.Atoi(tok)
				items := v.r.(*List).items
				if err != nil || i < 0 || i >= len(items) {
					return Nil, nil
				}
				v = share(items[i])
			default:
				return Nil, nil
			}
		}
		return v, nil
	})
	lib.Builtin("toml_parse", WithText("toml_parse", func(_ *Call, text string, _ []Value) (Value, error) {
		var x any
		if err := toml.Unmarshal([]byte(text), &x); err != nil {
			return Nil, throwValue(Str("TOML parse error: " + err.Error()))
		}
		return fromGo(x), nil
	}))
	lib.Builtin("toml_stringify", func(c *Call, args []Value) (Value, error) {
		b, err := toml.Marshal(toGo(Arg(args, 0)))
		if err != nil {
			return Nil, throwValue(Str("toml_stringify: " + err.Error()))
		}
		return Str(string(b)), nil
	})
	lib.Builtin("yaml_parse", WithText("yaml_parse", func(_ *Call, text string, _ []Value) (Value, error) {
		var x any
		if err := yaml.Unmarshal([]byte(text), &x); err != nil {
			return Nil, throwValue(Str("YAML parse error: " + err.Error()))
		}
		return fromGo(yamlPlain(x, 0)), nil
	}))
	lib.Builtin("yaml_stringify", func(c *Call, args []Value) (Value, error) {
		b, err := yaml.Marshal(toGo(Arg(args, 0)))
		if err != nil {
			return Nil, throwValue(Str("yaml_stringify: " + err.Error()))
		}
		return Str(string(b)), nil
	})
	lib.Builtin("csv_parse", func(c *Call, args []Value) (Value, error) {
		r := csv.NewReader(strings.NewReader(Display(Arg(args, 0))))
		r.FieldsPerRecord = -1
		header := false
		if o := Arg(args, 1); o.k == KindDict {
			for _, k := range []string{"header", "headers"} {
				if h, ok := o.r.(*Dict).Get(k); ok {
					header = h.Truthy()
				}
			}
			if d, ok := o.r.(*Dict).Get("delimiter"); ok {
				if s := Display(d); s != "" {
					r.Comma = []rune(s)[0]
				}
			}
		}
		var rows []Value
		var names []string
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return Nil, throwValue(Str("CSV parse error: " + err.Error()))
			}
			if header && names == nil {
				names = rec
				continue
			}
			if header {
				d := NewDict(len(rec))
				for i, f := range rec {
					if i < len(names) {
						d.Set(names[i], Str(f))
					}
				}
				rows = append(rows, DictValue(d))
				continue
			}
			fs := make([]Value, len(rec))
			for i, f := range rec {
				fs[i] = Str(f)
			}
			rows = append(rows, NewListValue(fs))
		}
		return NewListValue(rows), nil
	})
	lib.Builtin("csv_stringify", func(c *Call, args []Value) (Value, error) {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		items, err := c.th.collect(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		// Dict rows write a header line of the sorted keys of the first
		// row, then each row's values in that order.
		var columns []string
		if len(items) > 0 && items[0].k == KindDict {
			columns = append(columns, items[0].r.(*Dict).Keys()...)
			if err := w.Write(columns); err != nil {
				return Nil, err
			}
		}
		for _, row := range items {
			var rec []string
			if row.k == KindDict {
				for _, col := range columns {
					v, _ := row.r.(*Dict).Get(col)
					rec = append(rec, tmplDisplay(v))
				}
			} else if row.k == KindList {
				for _, f := range row.r.(*List).items {
					rec = append(rec, Display(f))
				}
			} else {
				rec = []string{Display(row)}
			}
			if err := w.Write(rec); err != nil {
				return Nil, err
			}
		}
		w.Flush()
		return Str(b.String()), nil
	})
}

func pointerTokens(p string) []string {
	if p == "" || p == "/" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

// stringifyJSON is json_stringify's text of v, charged to the call's run
// (see walk). A value nested deeper than maxValueDepth is an error naming
// fn, not a null in its place.
func (c *Call) stringifyJSON(fn string, v Value) (Value, error) {
	var b strings.Builder
	w := &walk{th: c.th, out: &b}
	writeJSONWalk(&b, v, 0, w)
	if w.err == errTooDeep {
		return Nil, throwValue(Str(fn + ": value nested deeper than " + strconv.Itoa(maxValueDepth) + " levels"))
	}
	if w.err != nil {
		return Nil, w.err
	}
	return Str(b.String()), nil
}

// errTooDeep ends a JSON walk at a value nested past maxValueDepth.
var errTooDeep = errors.New("nested too deep")

// writeJSON is json_stringify's compact form: keys sorted, floats in their
// shortest form, bytes as a tagged base64 object. It is for the host's own
// texts (checkpoints, cache keys): a part nested past maxValueDepth, or
// past what a walk without a run visits, is written as null.
// JSON is v as compact JSON text, as json_stringify writes it.
func JSON(v Value) string {
	var b strings.Builder
	writeJSON(&b, v, 0)
	return b.String()
}

func writeJSON(b *strings.Builder, v Value, depth int) {
	writeJSONWalk(b, v, depth, &walk{out: b})
}

// writeJSONWalk writes v as JSON, counting each node on w; past
// maxValueDepth it stops the walk with errTooDeep.
func writeJSONWalk(b *strings.Builder, v Value, depth int, w *walk) {
	if depth > maxValueDepth && w.err == nil {
		w.err = errTooDeep
	}
	if !w.visit() {
		b.WriteString("null")
		return
	}
	switch v.k {
	case KindNil:
		b.WriteString("null")
	case KindBool:
		if v.n != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt, KindDuration:
		b.WriteString(strconv.FormatInt(int64(v.n), 10))
	case KindFloat:
		f := v.AsFloat()
		b.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
	case KindString:
		writeJSONString(b, v.r.(string))
	case KindBytes:
		b.WriteString(`{"__harn_bytes_b64":`)
		writeJSONString(b, base64.StdEncoding.EncodeToString(v.r.([]byte)))
		b.WriteByte('}')
	case KindList, KindSet:
		var items []Value
		if v.k == KindList {
			items = v.r.(*List).items
		} else {
			items = v.r.(*Set).items
		}
		b.WriteByte('[')
		for i, x := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONWalk(b, x, depth+1, w)
		}
		b.WriteByte(']')
	case KindDict:
		d := v.r.(*Dict)
		b.WriteByte('{')
		for i, k := range d.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			writeJSONWalk(b, d.m[k], depth+1, w)
		}
		b.WriteByte('}')
	case KindStruct:
		s := v.r.(*StructValue)
		b.WriteByte('{')
		for n, i := range sortedFieldOrder(s.Type) {
			if n > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, s.Type.fields[i])
			b.WriteByte(':')
			writeJSONWalk(b, s.Fields[i], depth+1, w)
		}
		b.WriteByte('}')
	case KindRange:
		writeJSONString(b, Display(v))
	default:
		b.WriteString("null")
	}
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
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
			if unicode.IsControl(r) {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// ParseJSON reads JSON into Harn values: integers that fit int64 stay
// ints, other numbers are floats.
func ParseJSON(s string) (Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return Nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Nil, fmt.Errorf("trailing characters after the JSON value")
	}
	return fromGo(x), nil
}

// fromGo converts decoded JSON/TOML data to a value.
func fromGo(x any) Value {
	switch x := x.(type) {
	case nil:
		return Nil
	case bool:
		return Bool(x)
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return Int(n)
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return Float(f)
	case float64:
		return Float(x)
	case int64:
		return Int(x)
	case int:
		return Int(int64(x))
	case string:
		return Str(x)
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = fromGo(e)
		}
		return NewListValue(out)
	case map[string]any:
		if len(x) == 1 {
			if s, ok := x["__harn_bytes_b64"].(string); ok {
				if b, err := base64.StdEncoding.DecodeString(s); err == nil {
					return BytesValue(b)
				}
			}
		}
		d := NewDict(len(x))
		for k, e := range x {
			d.Set(k, fromGo(e))
		}
		return DictValue(d)
	}
	return Str(fmt.Sprint(x))
}

// yamlPlain turns what the YAML decoder produces into fromGo's shapes:
// mappings with non-string keys get their keys as text, and dates stay
// as the text they were written as.
func yamlPlain(x any, depth int) any {
	if depth > maxValueDepth {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			x[k] = yamlPlain(v, depth+1)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[fmt.Sprint(k)] = yamlPlain(v, depth+1)
		}
		return out
	case []any:
		for i, v := range x {
			x[i] = yamlPlain(v, depth+1)
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case uint64:
		return float64(x)
	}
	return x
}

// toGo converts a value to plain Go data (TOML, YAML encoders).
func toGo(v Value) any {
	switch v.k {
	case KindNil:
		return nil
	case KindBool:
		return v.AsBool()
	case KindInt, KindDuration:
		return int64(v.n)
	case KindFloat:
		return v.AsFloat()
	case KindString:
		return v.r.(string)
	case KindList, KindSet:
		var items []Value
		if v.k == KindList {
			items = v.r.(*List).items
		} else {
			items = v.r.(*Set).items
		}
		out := make([]any, len(items))
		for i, x := range items {
			out[i] = toGo(x)
		}
		return out
	case KindDict:
		d := v.r.(*Dict)
		out := make(map[string]any, d.Len())
		for k, x := range d.m {
			out[k] = toGo(x)
		}
		return out
	case KindStruct:
		s := v.r.(*StructValue)
		out := map[string]any{}
		for i, n := range s.Type.fields {
			out[n] = toGo(s.Fields[i])
		}
		return out
	}
	return Display(v)
}

// extractJSON finds the JSON in model output: a fenced block, else the
// first balanced object or array, else the text.
func extractJSON(text string) string {
	t := strings.TrimSpace(text)
	if i := strings.Index(t, "```"); i >= 0 {
		after := t[i+3:]
		start := 0
		if nl := strings.IndexByte(after, '\n'); nl >= 0 {
			start = nl + 1
		}
		content := after[start:]
		if end := strings.Index(content, "```"); end >= 0 {
			return strings.TrimSpace(content[:end])
		}
	}
	if s, ok := balanced(t, '{', '}'); ok {
		return s
	}
	if s, ok := balanced(t, '[', ']'); ok {
		return s
	}
	return t
}

func balanced(s string, open, close byte) (string, bool) {
	start := strings.IndexByte(s, open)
	if start < 0 {
		return "", false
	}
	depth := 0
	inStr, esc := false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr:
			if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == open:
			depth++
		case c == close:
			depth--
			if depth == 0 {
				return s[start : i+1], true
			}
		}
	}
	return "", false
}
