package leia

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

func openString(in *Interp) {
	s := in.moduleTable("string", 32)
	reg := func(name string, fn NativeFunc) { s.SetStr(name, NewNative(name, fn)) }
	// oneStr registers a function of one string argument.
	oneStr := func(name string, f func(string) Value) {
		sp := specOf("string." + name)
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			var str string
			if err := sp.unpack(a, &str); err != nil {
				return nil, err
			}
			return t.Ret1(f(str)), nil
		})
	}
	oneStr("len", func(str string) Value { return Int(int64(len(str))) })
	reg("sub", strSub)
	oneStr("upper", func(str string) Value { return String(strings.ToUpper(str)) })
	oneStr("lower", func(str string) Value { return String(strings.ToLower(str)) })
	reg("rep", strRep)
	oneStr("reverse", func(str string) Value {
		b := []byte(str)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return String(string(b))
	})
	reg("byte", strByte)
	reg("char", func(t *Thread, a []Value) ([]Value, error) {
		b := make([]byte, len(a))
		for i := range a {
			c, err := CheckInt(a, i, "char")
			if err != nil {
				return nil, err
			}
			if c < 0 || c > 255 {
				return nil, ArgError(i, "char", "value out of range")
			}
			b[i] = byte(c)
		}
		return t.Ret1(String(string(b))), nil
	})
	reg("format", strFormat)
	reg("find", func(t *Thread, a []Value) ([]Value, error) { return strFind(t, a, true) })
	reg("match", func(t *Thread, a []Value) ([]Value, error) { return strFind(t, a, false) })
	reg("gmatch", strGmatch)
	reg("gsub", strGsub)
	// Leia and Go-style helpers.
	reg("split", strSplit)
	// trimmer registers trim, ltrim or rtrim: white space, or the
	// characters of a second argument when it is a string.
	trimmer := func(name string, cut func(s, chars string) string, space func(string) string) {
		sp := specOf("string." + name)
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			var str string
			var chars Value
			if err := sp.unpack(a, &str, &chars); err != nil {
				return nil, err
			}
			if chars.k == KindString {
				return t.Ret1(String(cut(str, chars.AsString()))), nil
			}
			return t.Ret1(String(space(str))), nil
		})
	}
	trimmer("trim", strings.Trim, strings.TrimSpace)
	trimmer("ltrim", strings.TrimLeft, func(s string) string { return strings.TrimLeft(s, " \t\r\n\v\f") })
	trimmer("rtrim", strings.TrimRight, func(s string) string { return strings.TrimRight(s, " \t\r\n\v\f") })
	twoStr := func(name string, f func(a, b string) Value) {
		sp := specOf("string." + name)
		reg(name, func(t *Thread, a []Value) ([]Value, error) {
			var x, y string
			if err := sp.unpack(a, &x, &y); err != nil {
				return nil, err
			}
			return t.Ret1(f(x, y)), nil
		})
	}
	twoStr("startswith", func(a, b string) Value { return Bool(strings.HasPrefix(a, b)) })
	twoStr("endswith", func(a, b string) Value { return Bool(strings.HasSuffix(a, b)) })
	twoStr("hasprefix", func(a, b string) Value { return Bool(strings.HasPrefix(a, b)) })
	twoStr("hassuffix", func(a, b string) Value { return Bool(strings.HasSuffix(a, b)) })
	twoStr("has_prefix", func(a, b string) Value { return Bool(strings.HasPrefix(a, b)) })
	twoStr("has_suffix", func(a, b string) Value { return Bool(strings.HasSuffix(a, b)) })
	twoStr("starts_with", func(a, b string) Value { return Bool(strings.HasPrefix(a, b)) })
	twoStr("ends_with", func(a, b string) Value { return Bool(strings.HasSuffix(a, b)) })
	twoStr("contains", func(a, b string) Value { return Bool(strings.Contains(a, b)) })
	twoStr("index", func(a, b string) Value {
		i := strings.Index(a, b)
		if i < 0 {
			return Nil
		}
		return Int(int64(i + 1))
	})
	twoStr("count", func(a, b string) Value { return Int(int64(strings.Count(a, b))) })
	joinSpec := specOf("string.join")
	reg("join", func(t *Thread, a []Value) ([]Value, error) {
		var tb *Table
		sep := ""
		if err := joinSpec.unpack(a, &tb, &sep); err != nil {
			return nil, err
		}
		parts := make([]string, 0, tb.Len())
		for _, v := range tb.arr {
			parts = append(parts, t.tostring(v, -1))
		}
		return t.Ret1(String(strings.Join(parts, sep))), nil
	})
	replaceSpec := specOf("string.replace")
	reg("replace", func(t *Thread, a []Value) ([]Value, error) {
		var str, old, nw string
		n := int64(-1)
		if err := replaceSpec.unpack(a, &str, &old, &nw, &n); err != nil {
			return nil, err
		}
		return t.Ret1(String(strings.Replace(str, old, nw, int(n)))), nil
	})
	oneStr("fields", func(str string) Value { return FromGo(strings.Fields(str)) })
	oneStr("title", func(str string) Value {
		words := strings.Fields(str)
		for i, w := range words {
			r, n := utf8.DecodeRuneInString(w)
			words[i] = strings.ToUpper(string(r)) + w[n:]
		}
		return String(strings.Join(words, " "))
	})
	in.registerLib("string", s)
}

// openStringMeta makes the metatable of strings, whose __index is the
// string library.
func openStringMeta(in *Interp) {
	meta := NewTable(0, 1)
	meta.SetStr("__index", TableValue(in.lib("string")))
	in.stringMeta = meta
}

// strIndex converts a Lua string index (negative from the end) to a
// 0-based offset clamped to [0, n].
func posRelat(i int64, n int) int64 {
	if i >= 0 {
		return i
	}
	if -i > int64(n) {
		return 0
	}
	return int64(n) + i + 1
}

var subSpec = specOf("string.sub")

func strSub(t *Thread, a []Value) ([]Value, error) {
	var s string
	i, j := int64(1), int64(-1)
	if err := subSpec.unpack(a, &s, &i, &j); err != nil {
		return nil, err
	}
	n := len(s)
	i = posRelat(i, n)
	j = posRelat(j, n)
	if i < 1 {
		i = 1
	}
	if j > int64(n) {
		j = int64(n)
	}
	if i > j {
		return t.Ret1(String("")), nil
	}
	return t.Ret1(String(s[i-1 : j])), nil
}

const maxStringSize = 1 << 30

var repSpec = specOf("string.rep")

func strRep(t *Thread, a []Value) ([]Value, error) {
	var s, sep string
	var n int64
	if err := repSpec.unpack(a, &s, &n, &sep); err != nil {
		return nil, err
	}
	if n <= 0 {
		return t.Ret1(String("")), nil
	}
	total := int64(len(s))*n + int64(len(sep))*(n-1)
	if total > int64(t.in.maxString) || total < 0 {
		return nil, fmt.Errorf("resulting string too large")
	}
	t.allocBytes(total, -1)
	var b strings.Builder
	b.Grow(int(total))
	for k := int64(0); k < n; k++ {
		if k > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
	return t.Ret1(String(b.String())), nil
}

var byteSpec = specOf("string.byte")

func strByte(t *Thread, a []Value) ([]Value, error) {
	var s string
	i := int64(1)
	if err := byteSpec.unpack(a, &s, &i); err != nil {
		return nil, err
	}
	j := i // the end defaults to the start
	if err := byteSpec.unpack(a, &s, &i, &j); err != nil {
		return nil, err
	}
	n := len(s)
	i, j = posRelat(i, n), posRelat(j, n)
	if i < 1 {
		i = 1
	}
	if j > int64(n) {
		j = int64(n)
	}
	if i > j {
		return nil, nil
	}
	out := make([]Value, 0, j-i+1)
	for k := i; k <= j; k++ {
		out = append(out, Int(int64(s[k-1])))
	}
	return out, nil
}

var findSpec, matchSpec = specOf("string.find"), specOf("string.match")

func strFind(t *Thread, a []Value, find bool) ([]Value, error) {
	sp := matchSpec
	if find {
		sp = findSpec
	}
	var s, p string
	init := int64(1)
	if err := sp.unpack(a, &s, &p, &init); err != nil {
		return nil, err
	}
	init = posRelat(init, len(s))
	if init < 1 {
		init = 1
	}
	if init > int64(len(s))+1 {
		return t.Ret1(Nil), nil
	}
	if find && (Arg(a, 3).Truthy() || !hasSpecials(p)) {
		i := strings.Index(s[init-1:], p)
		if i < 0 {
			return t.Ret1(Nil), nil
		}
		st := int64(i) + init
		return t.Ret2(Int(st), Int(st+int64(len(p))-1)), nil
	}
	st, e, ms, perr := patternFind(s, p, int(init-1), true)
	t.charge(int64(matchBudget-ms.budget), -1) // the matching done
	if perr != nil {
		return nil, perr
	}
	if st < 0 {
		return t.Ret1(Nil), nil
	}
	caps, cerr := ms.safeCaptures(st, e, !find)
	if cerr != nil {
		return nil, cerr
	}
	if find {
		out := []Value{Int(int64(st + 1)), Int(int64(e))}
		return append(out, caps...), nil
	}
	return caps, nil
}

var gmatchSpec = specOf("string.gmatch")

func strGmatch(t *Thread, a []Value) ([]Value, error) {
	var s, p string
	if err := gmatchSpec.unpack(a, &s, &p); err != nil {
		return nil, err
	}
	ms := newMatcher(s, p)
	src, lastMatch := 0, -1
	iter := func(t *Thread, _ []Value) ([]Value, error) {
		for ; src <= len(s); src++ {
			e, err := ms.tryMatch(src, 0)
			if err != nil {
				return nil, err
			}
			if e != -1 && e != lastMatch {
				start := src
				src, lastMatch = e, e
				return ms.safeCaptures(start, e, true)
			}
		}
		return t.Ret1(Nil), nil
	}
	return t.Ret1(NewNative("gmatch_iterator", iter)), nil
}

var gsubSpec = specOf("string.gsub")

func strGsub(t *Thread, a []Value) ([]Value, error) {
	var s, p string
	var repl Value
	if err := gsubSpec.unpack(a, &s, &p, &repl); err != nil {
		return nil, err
	}
	switch repl.k {
	case KindString, KindInt, KindFloat, KindTable, KindFunction, KindNative:
	default:
		return nil, typeError(2, "gsub", "string/function/table", repl)
	}
	maxN := int64(len(s) + 1)
	if err := gsubSpec.unpack(a, &s, &p, &repl, &maxN); err != nil {
		return nil, err
	}
	pi := 0
	anchor := len(p) > 0 && p[0] == '^'
	if anchor {
		pi = 1
	}
	ms := newMatcher(s, p)
	var b strings.Builder
	src, lastMatch := 0, -1
	n := int64(0)
	charged, matched := 0, ms.budget
	for n < maxN {
		// The text built and the matching done are charged as they grow:
		// a small subject with a large replacement builds a large string.
		if grown := b.Len() - charged; grown >= 1<<16 {
			if b.Len() > t.in.maxString {
				return nil, fmt.Errorf("resulting string too large")
			}
			t.allocBytes(int64(grown), -1)
			charged = b.Len()
		}
		if work := matched - ms.budget; work >= 1024 {
			t.charge(int64(work), -1)
			matched = ms.budget
		}
		e, err := ms.tryMatch(src, pi)
		if err != nil {
			return nil, err
		}
		if e != -1 && e != lastMatch {
			n++
			if err := t.gsubValue(&b, ms, src, e, repl); err != nil {
				return nil, err
			}
			src, lastMatch = e, e
		} else if src < len(s) {
			b.WriteByte(s[src])
			src++
		} else {
			break
		}
		if anchor {
			break
		}
	}
	if src < len(s) {
		b.WriteString(s[src:])
	}
	return t.Ret2(String(b.String()), Int(n)), nil
}

// gsubValue appends the replacement for the match [st, e).
func (t *Thread) gsubValue(b *strings.Builder, ms *matchState, st, e int, repl Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*patternError)
			if !ok {
				panic(r)
			}
			err = pe
		}
	}()
	whole := ms.src[st:e]
	var rv Value
	switch repl.k {
	case KindString, KindInt, KindFloat:
		rs := concatPiece(repl)
		for i := 0; i < len(rs); i++ {
			c := rs[i]
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			i++
			if i >= len(rs) {
				return fmt.Errorf("invalid use of '%%' in replacement string")
			}
			d := rs[i]
			switch {
			case d == '%':
				b.WriteByte('%')
			case d == '0':
				b.WriteString(whole)
			case d >= '1' && d <= '9':
				b.WriteString(concatPiece(ms.getCapture(int(d-'1'), st, e)))
			default:
				return fmt.Errorf("invalid use of '%%' in replacement string")
			}
		}
		return nil
	case KindTable:
		rv = t.index(repl, ms.getCapture(0, st, e), -1)
	default:
		caps := ms.captures(st, e, true)
		rv = t.Call1(repl, caps...)
	}
	switch {
	case !rv.Truthy():
		b.WriteString(whole)
	case rv.k == KindString || rv.IsNumber():
		b.WriteString(concatPiece(rv))
	default:
		return fmt.Errorf("invalid replacement value (a %s)", rv.TypeName())
	}
	return nil
}

var splitSpec = specOf("string.split")

func strSplit(t *Thread, a []Value) ([]Value, error) {
	var s string
	sep := " "
	if err := splitSpec.unpack(a, &s, &sep); err != nil {
		return nil, err
	}
	var parts []string
	if sep == "" {
		for _, r := range s {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(s, sep)
	}
	return t.Ret1(FromGo(parts)), nil
}

// strFormat is string.format.
func strFormat(t *Thread, a []Value) ([]Value, error) {
	f, err := CheckString(a, 0, "format")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	arg := 1
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			return nil, fmt.Errorf("invalid conversion '%%' to 'format'")
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		start := i
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		for i < len(f) && isdigit(f[i]) {
			i++
		}
		if i < len(f) && f[i] == '.' {
			i++
			for i < len(f) && isdigit(f[i]) {
				i++
			}
		}
		if i >= len(f) {
			return nil, fmt.Errorf("invalid conversion '%%%s' to 'format'", f[start:])
		}
		spec := f[start:i]
		verb := f[i]
		if len(spec) > 20 {
			return nil, fmt.Errorf("invalid conversion (format too long)")
		}
		if arg >= len(a) && verb != '%' {
			return nil, ArgError(arg, "format", "no value")
		}
		v := Arg(a, arg)
		arg++
		switch verb {
		case 'd', 'i':
			n, ok := toInteger(v)
			if !ok {
				if _, isNum := toNumber(v); isNum {
					return nil, ArgError(arg-1, "format", "number has no integer representation")
				}
				return nil, typeError(arg-1, "format", "number", v)
			}
			fmt.Fprintf(&b, "%"+spec+"d", n)
		case 'u':
			n, ok := toInteger(v)
			if !ok {
				return nil, typeError(arg-1, "format", "number", v)
			}
			fmt.Fprintf(&b, "%"+spec+"d", uint64(n))
		case 'c':
			n, ok := toInteger(v)
			if !ok {
				return nil, typeError(arg-1, "format", "number", v)
			}
			if spec == "" {
				b.WriteByte(byte(n))
			} else {
				fmt.Fprintf(&b, "%"+strings.TrimLeft(spec, "+ #0")+"s", string([]byte{byte(n)}))
			}
		case 'x', 'X', 'o':
			n, ok := toInteger(v)
			if !ok {
				return nil, typeError(arg-1, "format", "number", v)
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), uint64(n))
		case 'e', 'E', 'f', 'g', 'G':
			n, ok := toNumber(v)
			if !ok {
				return nil, typeError(arg-1, "format", "number", v)
			}
			x := n.AsFloat()
			if math.IsInf(x, 0) || math.IsNaN(x) {
				s := "inf"
				if math.IsNaN(x) {
					s = "nan"
				} else if x < 0 {
					s = "-inf"
				}
				if verb >= 'A' && verb <= 'Z' {
					s = strings.ToUpper(s)
				}
				fmt.Fprintf(&b, "%"+strings.TrimRight(spec, ".0123456789")+"s", s)
				continue
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), x)
		case 'a', 'A':
			n, ok := toNumber(v)
			if !ok {
				return nil, typeError(arg-1, "format", "number", v)
			}
			s := strconv.FormatFloat(n.AsFloat(), 'x', -1, 64)
			if verb == 'A' {
				s = strings.ToUpper(s)
			}
			b.WriteString(s)
		case 's':
			s := t.tostring(v, -1)
			fmt.Fprintf(&b, "%"+spec+"s", s)
		case 'p':
			// the identity of a reference value; "(null)" for the rest
			ptr := "(null)"
			switch v.k {
			case KindTable, KindFunction, KindNative, KindChannel, KindCoroutine, KindUserdata, KindString:
				if v.p != nil {
					ptr = fmt.Sprintf("%p", v.p)
				}
			}
			w := strings.TrimLeft(spec, "+ #0")
			if k := strings.IndexByte(w, '.'); k >= 0 {
				w = w[:k]
			}
			fmt.Fprintf(&b, "%"+w+"s", ptr)
		case 'q':
			b.WriteString(quoteString(v))
		case 'v':
			b.WriteString(t.tostring(v, -1))
		default:
			return nil, fmt.Errorf("invalid conversion '%%%s%c' to 'format'", spec, verb)
		}
	}
	return t.Ret1(String(b.String())), nil
}

func quoteString(v Value) string {
	switch v.k {
	case KindString:
	case KindInt:
		return FormatNumber(v)
	case KindFloat:
		f := v.AsFloat()
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			return strconv.FormatFloat(f, 'f', 1, 64)
		}
		return strconv.FormatFloat(f, 'g', 17, 64)
	default:
		return FormatValuePlain(v)
	}
	s := v.AsString()
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString("\\n")
		case c == '\r':
			b.WriteString("\\r")
		case c == 0:
			if i+1 < len(s) && isdigit(s[i+1]) {
				b.WriteString("\\000")
			} else {
				b.WriteString("\\0")
			}
		case c < 32 || c == 127:
			if i+1 < len(s) && isdigit(s[i+1]) {
				fmt.Fprintf(&b, "\\%03d", c)
			} else {
				fmt.Fprintf(&b, "\\%d", c)
			}
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FormatValuePlain is tostring without metamethods.
func FormatValuePlain(v Value) string {
	switch v.k {
	case KindString:
		return v.AsString()
	case KindInt, KindFloat:
		return FormatNumber(v)
	case KindNil:
		return "nil"
	case KindBool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	}
	return v.TypeName() + ": " + addrString(v)
}
