package leia

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

func openUTF8(in *Interp) {
	u := in.moduleTable("utf8", 8)
	reg := func(name string, fn NativeFunc) { u.SetStr(name, NewNative(name, fn)) }
	u.SetStr("charpattern", String("[\x00-\x7F\xC2-\xFD][\x80-\xBF]*"))
	reg("char", func(t *Thread, a []Value) ([]Value, error) {
		var b strings.Builder
		for i := range a {
			c, err := CheckInt(a, i, "char")
			if err != nil {
				return nil, err
			}
			if c < 0 || c > 0x7FFFFFFF {
				return nil, ArgError(i, "char", "value out of range")
			}
			b.WriteString(encodeRune(c))
		}
		return t.Ret1(String(b.String())), nil
	})
	lenSpec := specOf("utf8.len")
	reg("len", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		i, j := int64(1), int64(-1)
		if err := lenSpec.unpack(a, &s, &i, &j); err != nil {
			return nil, err
		}
		i, j = posRelat(i, len(s)), posRelat(j, len(s))
		if i < 1 || i > int64(len(s))+1 {
			return nil, ArgError(1, "len", "initial position out of bounds")
		}
		if j > int64(len(s)) {
			return nil, ArgError(2, "len", "final position out of bounds")
		}
		n := int64(0)
		for p := i - 1; p < j; {
			r, size := utf8.DecodeRuneInString(s[p:])
			if r == utf8.RuneError && size <= 1 {
				return t.Ret2(Nil, Int(p+1)), nil
			}
			p += int64(size)
			n++
		}
		return t.Ret1(Int(n)), nil
	})
	codepointSpec := specOf("utf8.codepoint")
	reg("codepoint", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		i := int64(1)
		if err := codepointSpec.unpack(a, &s, &i); err != nil {
			return nil, err
		}
		j := i // the end defaults to the start
		if err := codepointSpec.unpack(a, &s, &i, &j); err != nil {
			return nil, err
		}
		i, j = posRelat(i, len(s)), posRelat(j, len(s))
		if i < 1 {
			return nil, ArgError(1, "codepoint", "out of bounds")
		}
		if j > int64(len(s)) {
			return nil, ArgError(2, "codepoint", "out of bounds")
		}
		var out []Value
		for p := i - 1; p < j; {
			r, size := utf8.DecodeRuneInString(s[p:])
			if r == utf8.RuneError && size <= 1 {
				return nil, fmt.Errorf("invalid UTF-8 code")
			}
			out = append(out, Int(int64(r)))
			p += int64(size)
		}
		return out, nil
	})
	offsetSpec := specOf("utf8.offset")
	reg("offset", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		var n int64
		if err := offsetSpec.unpack(a, &s, &n); err != nil {
			return nil, err
		}
		i := int64(1) // the start defaults to the end for a negative n
		if n < 0 {
			i = int64(len(s)) + 1
		}
		if err := offsetSpec.unpack(a, &s, &n, &i); err != nil {
			return nil, err
		}
		i = posRelat(i, len(s))
		if i < 1 || i > int64(len(s))+1 {
			return nil, ArgError(2, "offset", "position out of bounds")
		}
		p := int(i - 1)
		cont := func(p int) bool { return p < len(s) && s[p]&0xC0 == 0x80 }
		if n == 0 {
			for p > 0 && cont(p) {
				p--
			}
			return t.Ret1(Int(int64(p + 1))), nil
		}
		if cont(p) {
			return nil, fmt.Errorf("initial position is a continuation byte")
		}
		if n < 0 {
			for n < 0 && p > 0 {
				p--
				for p > 0 && cont(p) {
					p--
				}
				n++
			}
		} else {
			n--
			for n > 0 && p < len(s) {
				p++
				for cont(p) {
					p++
				}
				n--
			}
		}
		if n == 0 {
			return t.Ret1(Int(int64(p + 1))), nil
		}
		return t.Ret1(Nil), nil
	})
	codesSpec := specOf("utf8.codes")
	reg("codes", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := codesSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		iter := func(t *Thread, a []Value) ([]Value, error) {
			i, _ := toInteger(Arg(a, 1))
			p := int(i)
			if p > 0 {
				_, size := utf8.DecodeRuneInString(s[p-1:])
				p += size - 1
			}
			if p >= len(s) {
				return t.Ret1(Nil), nil
			}
			r, size := utf8.DecodeRuneInString(s[p:])
			if r == utf8.RuneError && size <= 1 {
				return nil, fmt.Errorf("invalid UTF-8 code")
			}
			return t.Ret2(Int(int64(p+1)), Int(int64(r))), nil
		}
		return []Value{NewNative("codes_iterator", iter), a[0], Int(0)}, nil
	})
	reverseSpec := specOf("utf8.reverse")
	reg("reverse", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := reverseSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return t.Ret1(String(string(rs))), nil
	})
	subSpec := specOf("utf8.sub")
	reg("sub", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		i, j := int64(1), int64(-1)
		if err := subSpec.unpack(a, &s, &i, &j); err != nil {
			return nil, err
		}
		rs := []rune(s)
		n := len(rs)
		i, j = posRelat(i, n), posRelat(j, n)
		i, j = max(i, 1), min(j, int64(n))
		if i > j {
			return t.Ret1(String("")), nil
		}
		return t.Ret1(String(string(rs[i-1 : j]))), nil
	})
	upperSpec := specOf("utf8.upper")
	reg("upper", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := upperSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		return t.Ret1(String(strings.ToUpper(s))), nil
	})
	lowerSpec := specOf("utf8.lower")
	reg("lower", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := lowerSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		return t.Ret1(String(strings.ToLower(s))), nil
	})
	charclassSpec := specOf("utf8.charclass")
	reg("charclass", func(t *Thread, a []Value) ([]Value, error) {
		var c int64
		if err := charclassSpec.unpack(a, &c); err != nil {
			return nil, err
		}
		r := rune(c)
		cls := "C"
		switch {
		case unicode.IsLetter(r):
			cls = "L"
		case unicode.IsNumber(r):
			cls = "N"
		case unicode.IsSpace(r):
			cls = "S"
		case unicode.IsPunct(r):
			cls = "P"
		case unicode.IsSymbol(r):
			cls = "Sym"
		case unicode.IsMark(r):
			cls = "M"
		}
		return t.Ret1(String(cls)), nil
	})
	validateSpec := specOf("utf8.validate")
	reg("validate", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := validateSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		r := NewTable(0, 3)
		for p := 0; p < len(s); {
			c, size := utf8.DecodeRuneInString(s[p:])
			if c == utf8.RuneError && size <= 1 {
				r.SetStr("valid", False)
				r.SetStr("pos", Int(int64(p+1)))
				r.SetStr("error", String(fmt.Sprintf("invalid UTF-8 at byte %d", p+1)))
				return t.Ret1(TableValue(r)), nil
			}
			p += size
		}
		r.SetStr("valid", True)
		return t.Ret1(TableValue(r)), nil
	})
	sanitizeSpec := specOf("utf8.sanitize")
	reg("sanitize", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		repl := "\uFFFD"
		if err := sanitizeSpec.unpack(a, &s, &repl); err != nil {
			return nil, err
		}
		var b strings.Builder
		for p := 0; p < len(s); {
			c, size := utf8.DecodeRuneInString(s[p:])
			if c == utf8.RuneError && size <= 1 {
				b.WriteString(repl)
				p++
				continue
			}
			b.WriteString(s[p : p+size])
			p += size
		}
		return t.Ret1(String(b.String())), nil
	})
	validSpec := specOf("utf8.valid")
	reg("valid", func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := validSpec.unpack(a, &s); err != nil {
			return nil, err
		}
		return t.Ret1(Bool(utf8.ValidString(s))), nil
	})
	in.registerLib("utf8", u)
}

func encodeRune(c int64) string {
	if c <= utf8.MaxRune && (c < 0xD800 || c > 0xDFFF) {
		return string(rune(c))
	}
	// Lua allows surrogates and values up to 2^31 with the old scheme.
	var b []byte
	switch {
	case c < 0x10000:
		b = []byte{byte(0xE0 | c>>12), byte(0x80 | (c>>6)&0x3F), byte(0x80 | c&0x3F)}
	case c < 0x200000:
		b = []byte{byte(0xF0 | c>>18), byte(0x80 | (c>>12)&0x3F), byte(0x80 | (c>>6)&0x3F), byte(0x80 | c&0x3F)}
	case c < 0x4000000:
		b = []byte{byte(0xF8 | c>>24), byte(0x80 | (c>>18)&0x3F), byte(0x80 | (c>>12)&0x3F), byte(0x80 | (c>>6)&0x3F), byte(0x80 | c&0x3F)}
	default:
		b = []byte{byte(0xFC | c>>30), byte(0x80 | (c>>24)&0x3F), byte(0x80 | (c>>18)&0x3F), byte(0x80 | (c>>12)&0x3F), byte(0x80 | (c>>6)&0x3F), byte(0x80 | c&0x3F)}
	}
	return string(b)
}
