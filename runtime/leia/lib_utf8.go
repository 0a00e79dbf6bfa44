package leia

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

func openUTF8(in *Interp) {
	u := NewTable(0, 8)
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
	reg("len", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "len")
		if err != nil {
			return nil, err
		}
		i, err := OptInt(a, 1, "len", 1)
		if err != nil {
			return nil, err
		}
		j, err := OptInt(a, 2, "len", -1)
		if err != nil {
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
	reg("codepoint", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "codepoint")
		if err != nil {
			return nil, err
		}
		i, err := OptInt(a, 1, "codepoint", 1)
		if err != nil {
			return nil, err
		}
		j, err := OptInt(a, 2, "codepoint", i)
		if err != nil {
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
	reg("offset", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "offset")
		if err != nil {
			return nil, err
		}
		n, err := CheckInt(a, 1, "offset")
		if err != nil {
			return nil, err
		}
		def := int64(1)
		if n < 0 {
			def = int64(len(s)) + 1
		}
		i, err := OptInt(a, 2, "offset", def)
		if err != nil {
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
	reg("codes", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "codes")
		if err != nil {
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
	reg("reverse", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "reverse")
		if err != nil {
			return nil, err
		}
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return t.Ret1(String(string(rs))), nil
	})
	reg("sub", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "sub")
		if err != nil {
			return nil, err
		}
		rs := []rune(s)
		i, err := OptInt(a, 1, "sub", 1)
		if err != nil {
			return nil, err
		}
		j, err := OptInt(a, 2, "sub", -1)
		if err != nil {
			return nil, err
		}
		n := len(rs)
		i, j = posRelat(i, n), posRelat(j, n)
		i, j = max(i, 1), min(j, int64(n))
		if i > j {
			return t.Ret1(String("")), nil
		}
		return t.Ret1(String(string(rs[i-1 : j]))), nil
	})
	reg("upper", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "upper")
		return t.Ret1(String(strings.ToUpper(s))), err
	})
	reg("lower", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "lower")
		return t.Ret1(String(strings.ToLower(s))), err
	})
	reg("charclass", func(t *Thread, a []Value) ([]Value, error) {
		c, err := CheckInt(a, 0, "charclass")
		if err != nil {
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
	reg("validate", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "validate")
		if err != nil {
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
	reg("sanitize", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "sanitize")
		if err != nil {
			return nil, err
		}
		repl, err := OptString(a, 1, "sanitize", "\uFFFD")
		if err != nil {
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
	reg("valid", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "valid")
		return t.Ret1(Bool(utf8.ValidString(s))), err
	})
	in.RegisterModule("utf8", u)
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
