package http

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/runtime/harn"
)

// The multipart family: multipart/form-data bodies built from field
// dicts (with a boundary derived from the fields, so the same fields give
// the same bytes) and parsed under limits on the total size, each field's
// size and the number of fields.

const (
	multipartMaxTotal  = 8 << 20
	multipartMaxField  = 8 << 20
	multipartMaxFields = 128
)

func multipartErr(fn, format string, a ...any) error {
	return harn.Errorf("%s", fn+": "+fmt.Sprintf(format, a...))
}

func installMultipart(lib *harn.Library) {
	lib.Builtin("multipart_form_data", multipartFormData)
	lib.Builtin("multipart_parse", multipartParse)
	lib.Builtin("multipart_field_bytes", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		b, err := multipartFieldBytes(args, "multipart_field_bytes")
		if err != nil {
			return harn.Nil, err
		}
		return harn.BytesValue(b), nil
	})
	lib.Builtin("multipart_field_text", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		b, err := multipartFieldBytes(args, "multipart_field_text")
		if err != nil {
			return harn.Nil, err
		}
		if !utf8.Valid(b) {
			return harn.Nil, multipartErr("multipart_field_text", "invalid utf-8 sequence")
		}
		return harn.Str(string(b)), nil
	})
}

func multipartFieldBytes(args []harn.Value, fn string) ([]byte, error) {
	if len(args) == 0 {
		return nil, multipartErr(fn, "missing argument 1")
	}
	if args[0].Kind() != harn.KindDict {
		return nil, multipartErr(fn, "field must be a dict, got %s", args[0].TypeName())
	}
	v, ok := args[0].AsDict().Get("bytes")
	if !ok {
		return nil, multipartErr(fn, "field is missing bytes")
	}
	if v.Kind() != harn.KindBytes {
		return nil, multipartErr(fn, "field.bytes must be bytes, got %s", v.TypeName())
	}
	return v.AsBytes(), nil
}

func multipartOptions(args []harn.Value, i int, fn string) (*harn.Dict, error) {
	switch v := harn.Arg(args, i); v.Kind() {
	case harn.KindNil:
		return nil, nil
	case harn.KindDict:
		return v.AsDict(), nil
	default:
		return nil, multipartErr(fn, "options must be a dict, got %s", v.TypeName())
	}
}

// splitHeaderParams splits a header value at semicolons outside quotes.
func splitHeaderParams(s string) []string {
	var parts []string
	var cur strings.Builder
	inQuote, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
		case inQuote && r == '\\':
			escaped = true
		case r == '"':
			inQuote = !inQuote
		case r == ';' && !inQuote:
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

func unquoteHeaderParam(v string) string {
	v = strings.TrimSpace(v)
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	var b strings.Builder
	escaped := false
	for _, r := range v[1 : len(v)-1] {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		b.WriteByte('\\')
	}
	return b.String()
}

// headerValueParams is a header's lower-cased base value and its
// parameters (names lower-cased, values unquoted).
func headerValueParams(v string) (string, map[string]string) {
	parts := splitHeaderParams(v)
	params := map[string]string{}
	for _, p := range parts[1:] {
		name, val, ok := strings.Cut(p, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok || name == "" {
			continue
		}
		params[name] = unquoteHeaderParam(val)
	}
	return strings.ToLower(parts[0]), params
}

func validateBoundary(b, fn string) error {
	if b == "" {
		return multipartErr(fn, "boundary must not be empty")
	}
	if len(b) > 70 {
		return multipartErr(fn, "boundary must be at most 70 bytes")
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("'()+_,-./:=?", c) >= 0) {
			return multipartErr(fn, "boundary contains a character that is not valid in multipart/form-data")
		}
	}
	return nil
}

func multipartParse(c *harn.Call, args []harn.Value) (harn.Value, error) {
	const fn = "multipart_parse"
	body := harn.Arg(args, 0)
	if body.Kind() != harn.KindBytes && body.Kind() != harn.KindString {
		return harn.Nil, multipartErr(fn, "argument 1 must be bytes or string, got %s", body.TypeName())
	}
	ct := harn.Arg(args, 1)
	if ct.Kind() != harn.KindString {
		return harn.Nil, multipartErr(fn, "argument 2 must be a string, got %s", ct.TypeName())
	}
	opts, err := multipartOptions(args, 2, fn)
	if err != nil {
		return harn.Nil, err
	}
	limit := func(key string, def int) (int, error) {
		if opts == nil {
			return def, nil
		}
		v, ok := opts.Get(key)
		if !ok {
			return def, nil
		}
		if v.Kind() != harn.KindInt {
			return 0, multipartErr(fn, "%s must be an int, got %s", key, v.TypeName())
		}
		if v.AsInt() < 0 {
			return 0, multipartErr(fn, "%s must be non-negative, got %d", key, v.AsInt())
		}
		return int(v.AsInt()), nil
	}
	maxTotal, err := limit("max_total_bytes", multipartMaxTotal)
	if err != nil {
		return harn.Nil, err
	}
	maxField, err := limit("max_field_bytes", multipartMaxField)
	if err != nil {
		return harn.Nil, err
	}
	maxFields, err := limit("max_fields", multipartMaxFields)
	if err != nil {
		return harn.Nil, err
	}
	media, params := headerValueParams(ct.AsString())
	if media != "multipart/form-data" {
		return harn.Nil, multipartErr(fn, "expected multipart/form-data content type, got %s", media)
	}
	boundary, ok := params["boundary"]
	if !ok {
		return harn.Nil, multipartErr(fn, "content type is missing boundary")
	}
	if err := validateBoundary(boundary, fn); err != nil {
		return harn.Nil, err
	}
	data := harn.BytesOf(body)
	if len(data) > maxTotal {
		return harn.Nil, multipartErr(fn, "total body size %d exceeds max_total_bytes %d", len(data), maxTotal)
	}
	delim := []byte("--" + boundary)
	if !bytes.HasPrefix(data, delim) {
		return harn.Nil, multipartErr(fn, "body does not start with multipart boundary")
	}
	var fields []harn.Value
	pos := len(delim)
	at := func(p int, s string) bool { return p <= len(data) && bytes.HasPrefix(data[p:], []byte(s)) }
	for {
		if at(pos, "--") {
			pos += 2
			if at(pos, "\r\n") {
				pos += 2
			}
			if pos != len(data) {
				return harn.Nil, multipartErr(fn, "unexpected bytes after closing boundary")
			}
			break
		}
		if !at(pos, "\r\n") {
			return harn.Nil, multipartErr(fn, "malformed boundary delimiter line")
		}
		pos += 2
		if len(fields) >= maxFields {
			return harn.Nil, multipartErr(fn, "field count exceeds max_fields %d", maxFields)
		}
		hend := bytes.Index(data[pos:], []byte("\r\n\r\n"))
		if hend < 0 {
			return harn.Nil, multipartErr(fn, "part is missing header terminator")
		}
		headers, err := partHeaders(data[pos:pos+hend], fn)
		if err != nil {
			return harn.Nil, err
		}
		pos += hend + 4
		cend := bytes.Index(data[pos:], []byte("\r\n--"+boundary))
		if cend < 0 {
			return harn.Nil, multipartErr(fn, "part is missing following boundary")
		}
		content := append([]byte(nil), data[pos:pos+cend]...)
		if len(content) > maxField {
			return harn.Nil, multipartErr(fn, "field size %d exceeds max_field_bytes %d", len(content), maxField)
		}
		disp, ok := headers.Get("content-disposition")
		if !ok {
			return harn.Nil, multipartErr(fn, "part is missing Content-Disposition header")
		}
		dtype, dparams := headerValueParams(harn.Display(disp))
		if dtype != "form-data" {
			return harn.Nil, multipartErr(fn, "expected form-data disposition, got %s", dtype)
		}
		name := dparams["name"]
		if name == "" {
			return harn.Nil, multipartErr(fn, "part Content-Disposition is missing name")
		}
		f := harn.NewDict(6)
		f.Set("name", harn.Str(name))
		f.Set("filename", harn.Nil)
		if fname, ok := dparams["filename"]; ok {
			f.Set("filename", harn.Str(fname))
		}
		f.Set("content_type", harn.Nil)
		if ctv, ok := headers.Get("content-type"); ok {
			f.Set("content_type", ctv)
		}
		f.Set("headers", harn.DictValue(headers))
		f.Set("bytes", harn.BytesValue(content))
		f.Set("text", harn.Nil)
		if utf8.Valid(content) {
			f.Set("text", harn.Str(string(content)))
		}
		fields = append(fields, harn.DictValue(f))
		pos += cend + 2
		if !at(pos, string(delim)) {
			return harn.Nil, multipartErr(fn, "malformed boundary after part")
		}
		pos += len(delim)
	}
	d := harn.NewDict(4)
	d.Set("boundary", harn.Str(boundary))
	d.Set("fields", harn.NewListValue(fields))
	d.Set("field_count", harn.Int(int64(len(fields))))
	d.Set("total_bytes", harn.Int(int64(len(data))))
	return harn.DictValue(d), nil
}

func partHeaders(raw []byte, fn string) (*harn.Dict, error) {
	h := harn.NewDict(2)
	if !utf8.Valid(raw) {
		return nil, multipartErr(fn, "part headers are not UTF-8")
	}
	if len(raw) == 0 {
		return h, nil
	}
	for line := range strings.SplitSeq(string(raw), "\r\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, multipartErr(fn, "malformed part header line `%s`", line)
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			return nil, multipartErr(fn, "part header name must not be empty")
		}
		h.Set(name, harn.Str(strings.TrimSpace(value)))
	}
	return h, nil
}

func quoteHeaderParam(v string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`) + `"`
}

func multipartFormData(c *harn.Call, args []harn.Value) (harn.Value, error) {
	const fn = "multipart_form_data"
	if len(args) == 0 {
		return harn.Nil, multipartErr(fn, "missing argument 1")
	}
	if args[0].Kind() != harn.KindList {
		return harn.Nil, multipartErr(fn, "fields must be a list, got %s", args[0].TypeName())
	}
	fields := args[0].AsList().Items()
	opts, err := multipartOptions(args, 1, fn)
	if err != nil {
		return harn.Nil, err
	}
	// The default boundary hashes the fields' display forms.
	h := sha256.New()
	for _, f := range fields {
		h.Write([]byte(harn.Display(f)))
		h.Write([]byte{0})
	}
	base := "----harn-boundary-" + hex.EncodeToString(h.Sum(nil)[:8])
	if opts != nil {
		if bv, ok := opts.Get("boundary"); ok {
			switch bv.Kind() {
			case harn.KindString:
				base = bv.AsString()
			case harn.KindNil:
			default:
				return harn.Nil, multipartErr(fn, "boundary must be a string, got %s", bv.TypeName())
			}
			return buildMultipart(fields, base)
		}
	}
	for i := range 100 {
		cand := base
		if i > 0 {
			cand = base + "-" + strconv.Itoa(i)
		}
		clash := false
		for _, f := range fields {
			if f.Kind() != harn.KindDict {
				continue
			}
			v, ok := f.AsDict().Get("content")
			if !ok {
				v, ok = f.AsDict().Get("value")
			}
			if ok && (v.Kind() == harn.KindBytes || v.Kind() == harn.KindString) && bytes.Contains(harn.BytesOf(v), []byte(cand)) {
				clash = true
				break
			}
		}
		if !clash {
			return buildMultipart(fields, cand)
		}
	}
	return harn.Nil, multipartErr(fn, "could not generate a boundary absent from field content")
}

func buildMultipart(fields []harn.Value, boundary string) (harn.Value, error) {
	const fn = "multipart_form_data"
	if err := validateBoundary(boundary, fn); err != nil {
		return harn.Nil, err
	}
	var out bytes.Buffer
	str := func(d *harn.Dict, key string, required bool) (string, bool, error) {
		v, ok := d.Get(key)
		switch {
		case ok && v.Kind() == harn.KindString:
			if required && v.AsString() == "" {
				return "", false, multipartErr(fn, "%s must not be empty", key)
			}
			return v.AsString(), true, nil
		case (!ok || v.Kind() == harn.KindNil) && !required:
			return "", false, nil
		case !ok:
			return "", false, multipartErr(fn, "field is missing %s", key)
		}
		return "", false, multipartErr(fn, "%s must be a string, got %s", key, v.TypeName())
	}
	single := func(s, what string) error {
		if strings.ContainsAny(s, "\r\n") {
			return multipartErr(fn, "%s must be single-line", what)
		}
		return nil
	}
	for i, fv := range fields {
		if fv.Kind() != harn.KindDict {
			return harn.Nil, multipartErr(fn, "field %d must be a dict, got %s", i+1, fv.TypeName())
		}
		f := fv.AsDict()
		name, _, err := str(f, "name", true)
		if err != nil {
			return harn.Nil, err
		}
		if err := single(name, "field name"); err != nil {
			return harn.Nil, err
		}
		filename, hasFile, err := str(f, "filename", false)
		if err != nil {
			return harn.Nil, err
		}
		ctype, hasType, err := str(f, "content_type", false)
		if err != nil {
			return harn.Nil, err
		}
		content, ok := f.Get("content")
		if !ok {
			content, ok = f.Get("value")
		}
		if !ok {
			return harn.Nil, multipartErr(fn, "field is missing content")
		}
		if content.Kind() != harn.KindBytes && content.Kind() != harn.KindString {
			return harn.Nil, multipartErr(fn, "content must be bytes or string, got %s", content.TypeName())
		}
		var extra []string
		if hv, ok := f.Get("headers"); ok {
			if hv.Kind() != harn.KindDict {
				return harn.Nil, multipartErr(fn, "headers must be a dict, got %s", hv.TypeName())
			}
			hd := hv.AsDict()
			for _, k := range hd.Keys() {
				if strings.ContainsAny(k, "\r\n") || strings.TrimSpace(k) == "" {
					return harn.Nil, multipartErr(fn, "header names must be single-line")
				}
				if l := strings.ToLower(k); l == "content-disposition" || l == "content-type" {
					return harn.Nil, multipartErr(fn, "%s is managed by multipart_form_data", k)
				}
				v, _ := hd.Get(k)
				if v.Kind() != harn.KindString {
					return harn.Nil, multipartErr(fn, "header %s must be a string, got %s", k, v.TypeName())
				}
				if strings.ContainsAny(v.AsString(), "\r\n") {
					return harn.Nil, multipartErr(fn, "header values must be single-line")
				}
				extra = append(extra, k+": "+v.AsString()+"\r\n")
			}
		}
		out.WriteString("--" + boundary + "\r\n")
		out.WriteString("Content-Disposition: form-data; name=" + quoteHeaderParam(name))
		if hasFile {
			if err := single(filename, "filename"); err != nil {
				return harn.Nil, err
			}
			out.WriteString("; filename=" + quoteHeaderParam(filename))
		}
		out.WriteString("\r\n")
		if hasType {
			if err := single(ctype, "content_type"); err != nil {
				return harn.Nil, err
			}
			out.WriteString("Content-Type: " + ctype + "\r\n")
		}
		for _, e := range extra {
			out.WriteString(e)
		}
		out.WriteString("\r\n")
		out.Write(harn.BytesOf(content))
		out.WriteString("\r\n")
	}
	out.WriteString("--" + boundary + "--\r\n")
	d := harn.NewDict(3)
	d.Set("boundary", harn.Str(boundary))
	d.Set("content_type", harn.Str("multipart/form-data; boundary="+boundary))
	d.Set("body", harn.BytesValue(out.Bytes()))
	return harn.DictValue(d), nil
}
