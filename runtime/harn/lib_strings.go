package harn

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// String builtins (the free-function forms of the string methods, case
// conversions, padding, normalisation, format).

func installStrings(lib *Library) {
	str1 := func(name string, f func(string) string) {
		spec := ArgsOf(name)
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			var s string
			if err := spec.Unpack(c, args, AsText(&s)); err != nil {
				return Nil, err
			}
			return Str(f(s)), nil
		})
	}
	str1("trim", strings.TrimSpace)
	str1("lowercase", strings.ToLower)
	str1("uppercase", strings.ToUpper)
	str1("snake_to_camel", func(s string) string { return joinWords(splitWords(s), false, true) })
	str1("snake_to_pascal", func(s string) string { return joinWords(splitWords(s), true, true) })
	str1("snake_to_kebab", func(s string) string { return strings.ToLower(strings.Join(splitWords(s), "-")) })
	str1("camel_to_snake", func(s string) string { return strings.ToLower(strings.Join(splitWords(s), "_")) })
	str1("camel_to_kebab", func(s string) string { return strings.ToLower(strings.Join(splitWords(s), "-")) })
	str1("camel_to_pascal", func(s string) string { return upperFirst(s) })
	str1("pascal_to_snake", func(s string) string { return strings.ToLower(strings.Join(splitWords(s), "_")) })
	str1("pascal_to_camel", func(s string) string { return lowerFirst(s) })
	str1("kebab_to_snake", func(s string) string { return strings.ToLower(strings.Join(splitWords(s), "_")) })
	str1("kebab_to_camel", func(s string) string { return joinWords(splitWords(s), false, true) })
	str1("title_case", func(s string) string {
		words := strings.Fields(s)
		for i, w := range words {
			words[i] = upperFirst(strings.ToLower(w))
		}
		return strings.Join(words, " ")
	})
	str1("uppercase_first", upperFirst)
	str1("lowercase_first", lowerFirst)
	lib.Builtin("split", func(c *Call, args []Value) (Value, error) {
		sep := " "
		if len(args) > 1 {
			sep = Display(args[1])
		}
		return c.th.kindMethod("string", Str(Display(Arg(args, 0))), "split", []Value{Str(sep)})
	})
	lib.Builtin("join", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		sep := ""
		if len(args) > 1 {
			sep = Display(args[1])
		}
		items, err := c.th.collect(v)
		if err != nil || v.k == KindNil {
			return Str(""), nil
		}
		return c.th.join(items, sep)
	})
	startsWithArgs := ArgsOf("starts_with")
	lib.Builtin("starts_with", func(c *Call, args []Value) (Value, error) {
		var text, affix string
		if err := startsWithArgs.Unpack(c, args, AsText(&text), AsText(&affix)); err != nil {
			return Nil, err
		}
		return Bool(strings.HasPrefix(text, affix)), nil
	})
	endsWithArgs := ArgsOf("ends_with")
	lib.Builtin("ends_with", func(c *Call, args []Value) (Value, error) {
		var text, affix string
		if err := endsWithArgs.Unpack(c, args, AsText(&text), AsText(&affix)); err != nil {
			return Nil, err
		}
		return Bool(strings.HasSuffix(text, affix)), nil
	})
	lib.Builtin("contains", func(c *Call, args []Value) (Value, error) {
		h, n := Arg(args, 0), Arg(args, 1)
		switch h.k {
		case KindString:
			return Bool(strings.Contains(h.r.(string), Display(n))), nil
		case KindList, KindSet, KindDict, KindRange:
			ok, err := contains(h, n)
			return Bool(ok), err
		}
		return False, nil
	})
	replaceArgs := ArgsOf("replace")
	lib.Builtin("replace", func(c *Call, args []Value) (Value, error) {
		var text, from, to string
		if err := replaceArgs.Unpack(c, args, AsText(&text), AsText(&from), AsText(&to)); err != nil {
			return Nil, err
		}
		return Str(strings.ReplaceAll(text, from, to)), nil
	})
	lib.Builtin("substring", func(c *Call, args []Value) (Value, error) {
		rs := []rune(Display(Arg(args, 0)))
		start := clampInt(IntArg(Arg(args, 1), 0), 0, int64(len(rs)))
		end := int64(len(rs))
		if l := Arg(args, 2); l.k == KindInt {
			end = start + clampInt(int64(l.n), 0, int64(len(rs))-start)
		}
		return Str(string(rs[start:end])), nil
	})
	lib.Builtin("format", func(c *Call, args []Value) (Value, error) {
		return Str(formatTemplate(Display(Arg(args, 0)), args[min(1, len(args)):])), nil
	})
	lib.Builtin("str_pad", func(c *Call, args []Value) (Value, error) {
		s := Display(Arg(args, 0))
		width := max(IntArg(Arg(args, 1), 0), 0)
		fill := " "
		if f := Display(Arg(args, 2)); len(args) > 2 && f != "" {
			_, size := utf8.DecodeRuneInString(f)
			fill = f[:size]
		}
		side := "right"
		if len(args) > 3 {
			side = strings.ToLower(Display(args[3]))
		}
		n := int64(utf8.RuneCountInString(s))
		if n >= width || width > MaxStringBytes {
			return Str(s), nil
		}
		need := int(width - n)
		var l, r int
		switch side {
		case "left":
			l = need
		case "right":
			r = need
		case "both":
			l, r = need/2, need-need/2
		default:
			return Nil, runtimeError("str_pad: side must be left, right, or both")
		}
		return Str(strings.Repeat(fill, l) + s + strings.Repeat(fill, r)), nil
	})
	lib.Builtin("unicode_normalize", func(c *Call, args []Value) (Value, error) {
		s := Display(Arg(args, 0))
		switch strings.ToUpper(Display(Arg(args, 1))) {
		case "NFC":
			return Str(norm.NFC.String(s)), nil
		case "NFD":
			return Str(norm.NFD.String(s)), nil
		case "NFKC":
			return Str(norm.NFKC.String(s)), nil
		case "NFKD":
			return Str(norm.NFKD.String(s)), nil
		}
		return Nil, runtimeError("unicode_normalize: form must be NFC, NFD, NFKC or NFKD")
	})
	lib.Builtin("unicode_graphemes", func(c *Call, args []Value) (Value, error) {
		var out []Value
		for _, g := range graphemes(Display(Arg(args, 0))) {
			out = append(out, Str(g))
		}
		return NewListValue(out), nil
	})
}

// graphemes splits text into user-perceived characters: a base rune and
// the combining marks, joiners, variation selectors and skin-tone
// modifiers that attach to it (an approximation of UAX #29 that covers
// accents, ZWJ emoji sequences and flags).
func graphemes(s string) []string {
	var out []string
	var cur []rune
	prevZWJ := false
	regional := 0
	for _, r := range s {
		attach := len(cur) > 0 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Mc, r) ||
			r == 0x200D || (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0x1F3FB && r <= 0x1F3FF) || prevZWJ ||
			(r >= 0x1F1E6 && r <= 0x1F1FF && regional%2 == 1) || (r == '\n' && len(cur) == 1 && cur[0] == '\r'))
		if !attach && len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
			regional = 0
		}
		cur = append(cur, r)
		prevZWJ = r == 0x200D
		if r >= 0x1F1E6 && r <= 0x1F1FF {
			regional++
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

// formatTemplate fills `{}` placeholders in order, or `{name}` ones from a
// dict argument.
func formatTemplate(t string, args []Value) string {
	var b strings.Builder
	if len(args) > 0 && args[0].k == KindDict {
		d := args[0].r.(*Dict)
		rest := t
		for {
			open := strings.IndexByte(rest, '{')
			if open < 0 {
				break
			}
			b.WriteString(rest[:open])
			close := strings.IndexByte(rest[open:], '}')
			if close < 0 {
				b.WriteString(rest[open:])
				rest = ""
				break
			}
			key := rest[open+1 : open+close]
			if v, ok := d.raw(key); ok {
				b.WriteString(Display(v))
			} else {
				b.WriteString(rest[open : open+close+1])
			}
			rest = rest[open+close+1:]
		}
		b.WriteString(rest)
		return b.String()
	}
	rest := t
	i := 0
	for {
		p := strings.Index(rest, "{}")
		if p < 0 {
			break
		}
		b.WriteString(rest[:p])
		if i < len(args) {
			b.WriteString(Display(args[i]))
			i++
		} else {
			b.WriteString("{}")
		}
		rest = rest[p+2:]
	}
	b.WriteString(rest)
	return b.String()
}

// splitWords splits snake, kebab, camel and Pascal case into words.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ':
			flush()
		case unicode.IsUpper(r):
			if len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1]) ||
				i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(cur[len(cur)-1])) {
				flush()
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

func joinWords(words []string, pascal, lowerRest bool) string {
	var b strings.Builder
	for i, w := range words {
		if lowerRest {
			w = strings.ToLower(w)
		}
		if i > 0 || pascal {
			w = upperFirst(w)
		}
		b.WriteString(w)
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}
