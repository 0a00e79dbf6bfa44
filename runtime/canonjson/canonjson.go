// Package canonjson decodes JSON without losing what digests depend on and
// encodes the canonical form that receipts, identities and tapes hash.
//
// # Values
//
// Decode yields nil, bool, string, int64, uint64, float64, []any and
// *Object (keys in document order). A number is an integer when its literal
// has no fraction and no exponent and fits in 64 bits (int64, or uint64
// above the int64 range); every other number is a float64. Duplicate object
// keys, trailing data, invalid UTF-8 and nesting deeper than MaxDepth are
// errors with a byte offset. Encode also accepts map[string]any, int and
// the other Go integer types, float32, []string, json.RawMessage and
// json.Marshaler values (re-decoded).
//
// # Canonical form (Encode)
//
// The form of upstream Harn's canonical JSON (serde_json with recursively
// sorted keys), so digests agree byte for byte:
//
//   - object keys sorted by their UTF-8 bytes, at every depth; array order
//     kept; no whitespace;
//   - strings: `"` and `\` escaped with a backslash; \b \f \n \r \t for
//     those controls; other bytes below 0x20 as \u00XX with lower-case hex;
//     everything else (DEL, non-ASCII, `/`, `<`, `>`, `&`, U+2028) verbatim;
//   - integers in decimal; -0 as an integer is 0;
//   - floats in the shortest digits that round-trip (Ryu), laid out by
//     the decimal exponent kk (10^(kk-1) <= |f| < 10^kk): digits padded
//     with zeros and ".0" when the value is an integer and kk <= 16
//     ("1.0", "100.0", "1234567890123456.0"); digits with the point
//     inside when 0 < kk <= 16 ("123.456"); "0." then
//     -kk zeros then the digits when -5 < kk <= 0 ("0.5", "0.00001");
//     otherwise exponent form "1e16", "1.5e17", "1e-6" (no "+"). -0.0
//     is "-0.0". NaN and infinities are not encodable (an error).
package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds nesting in Decode and Encode.
const MaxDepth = 128

// Object is a JSON object whose keys keep their document order.
type Object struct {
	Keys   []string
	Values map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{Values: map[string]any{}} }

// Set adds or replaces a key (a new key goes last).
func (o *Object) Set(k string, v any) {
	if _, ok := o.Values[k]; !ok {
		o.Keys = append(o.Keys, k)
	}
	o.Values[k] = v
}

// Get returns a key's value.
func (o *Object) Get(k string) (any, bool) {
	v, ok := o.Values[k]
	return v, ok
}

// Len is the number of keys.
func (o *Object) Len() int { return len(o.Keys) }

// SyntaxError is a decoding error at a byte offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Decode parses one JSON document.
func Decode(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, &SyntaxError{Offset: invalidUTF8(data), Msg: "invalid UTF-8"}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, &SyntaxError{Offset: int(d.InputOffset()), Msg: "trailing data after the JSON document"}
	}
	return v, nil
}

func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func wrap(d *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &SyntaxError{Offset: int(se.Offset), Msg: se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &SyntaxError{Offset: int(d.InputOffset()), Msg: "unexpected end of JSON input"}
	}
	return &SyntaxError{Offset: int(d.InputOffset()), Msg: err.Error()}
}

func decodeValue(d *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, &SyntaxError{Offset: int(d.InputOffset()), Msg: fmt.Sprintf("nesting deeper than %d", MaxDepth)}
	}
	tok, err := d.Token()
	if err != nil {
		return nil, wrap(d, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for d.More() {
				off := int(d.InputOffset())
				kt, err := d.Token()
				if err != nil {
					return nil, wrap(d, err)
				}
				k, _ := kt.(string)
				if _, dup := o.Values[k]; dup {
					return nil, &SyntaxError{Offset: off, Msg: fmt.Sprintf("duplicate object key %q", k)}
				}
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, wrap(d, err)
			}
			return o, nil
		case '[':
			list := []any{}
			for d.More() {
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, wrap(d, err)
			}
			return list, nil
		}
		return nil, &SyntaxError{Offset: int(d.InputOffset()), Msg: fmt.Sprintf("unexpected %q", t)}
	case json.Number:
		return number(string(t))
	default:
		return t, nil // nil, bool, string
	}
}

// number classifies a number literal as upstream's serde_json does.
func number(lit string) (any, error) {
	if !strings.ContainsAny(lit, ".eE") {
		if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return i, nil
		}
		if u, err := strconv.ParseUint(lit, 10, 64); err == nil {
			return u, nil
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Errorf("bad number %q", lit)
	}
	if math.IsInf(f, 0) {
		return nil, fmt.Errorf("number %q is out of range", lit)
	}
	return f, nil
}

// Encode returns the canonical form of v.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, v, 0, true); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MustEncode is Encode for values known to be encodable (built by the
// caller from strings, integers, finite floats, lists and objects).
func MustEncode(v any) []byte {
	b, err := Encode(v)
	if err != nil {
		panic(fmt.Sprintf("canonjson: %v", err))
	}
	return b
}

// FromGo converts a Go value (structs with json tags, maps, slices) to
// the decoded representation by marshalling it with encoding/json and
// decoding the result; struct field order is kept in *Object key order.
func FromGo(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

func encode(b *bytes.Buffer, v any, depth int, sorted bool) error {
	if depth > MaxDepth {
		return fmt.Errorf("nesting deeper than %d", MaxDepth)
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		WriteString(b, t)
	case int:
		b.WriteString(strconv.FormatInt(int64(t), 10))
	case int32:
		b.WriteString(strconv.FormatInt(int64(t), 10))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case uint:
		b.WriteString(strconv.FormatUint(uint64(t), 10))
	case uint32:
		b.WriteString(strconv.FormatUint(uint64(t), 10))
	case uint64:
		b.WriteString(strconv.FormatUint(t, 10))
	case float32:
		return encode(b, float64(t), depth, sorted)
	case float64:
		s, err := FormatFloat(t)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encode(b, e, depth+1, sorted); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []string:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			WriteString(b, e)
		}
		b.WriteByte(']')
	case *Object:
		if !sorted {
			return encodeOrdered(b, t, depth)
		}
		return encodeMap(b, t.Values, depth, sorted)
	case map[string]any:
		return encodeMap(b, t, depth, sorted)
	case json.RawMessage:
		d, err := Decode(t)
		if err != nil {
			return err
		}
		return encode(b, d, depth, sorted)
	default:
		d, err := FromGo(v)
		if err != nil {
			return fmt.Errorf("cannot encode %T: %v", v, err)
		}
		return encode(b, d, depth, sorted)
	}
	return nil
}

func encodeOrdered(b *bytes.Buffer, o *Object, depth int) error {
	b.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		WriteString(b, k)
		b.WriteByte(':')
		if err := encode(b, o.Values[k], depth+1, false); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func encodeMap(b *bytes.Buffer, m map[string]any, depth int, sorted bool) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // Go string order is byte order
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		WriteString(b, k)
		b.WriteByte(':')
		if err := encode(b, m[k], depth+1, sorted); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

const hexDigits = "0123456789abcdef"

// WriteString writes s as a JSON string with serde_json's escaping.
func WriteString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c < 0x20:
			esc = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf])
		default:
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// QuoteString returns s as a JSON string with serde_json's escaping.
func QuoteString(s string) string {
	var b bytes.Buffer
	WriteString(&b, s)
	return b.String()
}

// shortest returns the shortest round-trip decimal digits of |f| (no
// leading or trailing zeros, at least one digit) and the decimal exponent
// e such that |f| = 0.d1d2... * 10^e.
func shortest(f float64) (digits string, point int) {
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	digits = strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	return digits, x + 1
}

// FormatFloat formats a finite float as serde_json (Ryu) does; see the
// package documentation.
func FormatFloat(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("non-finite number %v", f)
	}
	sign := ""
	if math.Signbit(f) {
		sign = "-"
	}
	if f == 0 {
		return sign + "0.0", nil
	}
	digits, kk := shortest(f) // value = 0.digits * 10^kk, so the point is after kk digits
	n := len(digits)
	k := kk - n // value = digits * 10^k
	var s string
	switch {
	case k >= 0 && kk <= 16:
		s = digits + strings.Repeat("0", k) + ".0"
	case kk > 0 && kk <= 16:
		s = digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		s = "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		s = digits + "e" + strconv.Itoa(kk-1)
	default:
		s = digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
	return sign + s, nil
}

// RustDebugFloat formats a finite float as Rust's `{:?}` does for f64:
// decimal with at least one fractional digit when 1e-4 <= |f| < 1e16 (or
// f is zero), otherwise shortest exponent form "1e16", "1.5e-5". Upstream
// hashes policy numbers in this form.
func RustDebugFloat(f float64) string {
	sign := ""
	if math.Signbit(f) {
		sign = "-"
	}
	a := math.Abs(f)
	if f == 0 {
		return sign + "0.0"
	}
	digits, kk := shortest(f)
	if a < 1e-4 || a >= 1e16 {
		if len(digits) == 1 {
			return sign + digits + "e" + strconv.Itoa(kk-1)
		}
		return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
	switch {
	case kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case kk >= len(digits):
		return sign + digits + strings.Repeat("0", kk-len(digits)) + ".0"
	default:
		return sign + digits[:kk] + "." + digits[kk:]
	}
}

// SortedKeys returns an object's or map's keys in byte order.
func SortedKeys(v any) []string {
	var keys []string
	switch t := v.(type) {
	case *Object:
		keys = slices.Clone(t.Keys)
	case map[string]any:
		for k := range t {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// MarshalIndent writes v as JSON for people: *Object keys in their own
// order, map keys sorted, two-space indentation, numbers and strings as
// in the canonical form. Struct values are converted with FromGo, so
// their field order is kept.
func MarshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := indent(&b, v, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func indent(b *bytes.Buffer, v any, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("nesting deeper than %d", MaxDepth)
	}
	pad := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch t := v.(type) {
	case *Object:
		if t.Len() == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, k := range t.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			WriteString(b, k)
			b.WriteString(": ")
			if err := indent(b, t.Values[k], depth+1); err != nil {
				return err
			}
		}
		pad(depth)
		b.WriteByte('}')
	case map[string]any:
		o := NewObject()
		for _, k := range SortedKeys(t) {
			o.Set(k, t[k])
		}
		return indent(b, o, depth)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			if err := indent(b, e, depth+1); err != nil {
				return err
			}
		}
		pad(depth)
		b.WriteByte(']')
	case nil, bool, string, int, int32, int64, uint, uint32, uint64, float32, float64, []string:
		return encode(b, v, depth, false)
	default:
		d, err := FromGo(v)
		if err != nil {
			return fmt.Errorf("cannot encode %T: %v", v, err)
		}
		return indent(b, d, depth)
	}
	return nil
}

// MarshalJSON writes the object with its keys in their own order (not the
// canonical order) and numbers in the canonical form, so FromGo keeps both.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := encodeOrdered(&b, o, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
