package harn

import (
	"regexp"
	"sync"
)

// Regex builtins (Go's RE2 syntax; upstream uses Rust's regex crate, which
// accepts the same syntax for everything but a few Perl classes).

var regexCache sync.Map // flags+"\x00"+pattern -> *regexp.Regexp

func compileRegex(pattern, flags string) (*regexp.Regexp, error) {
	key := flags + "\x00" + pattern
	if re, ok := regexCache.Load(key); ok {
		return re.(*regexp.Regexp), nil
	}
	prefix := ""
	for _, f := range flags {
		switch f {
		case 'i', 'm', 's':
			prefix += string(f)
		case 'x':
			pattern = stripExtended(pattern)
		default:
			return nil, throwValue(Str("Invalid regex: unsupported regex flag '" + string(f) + "', expected one of i/m/s/x"))
		}
	}
	src := pattern
	if prefix != "" {
		src = "(?" + prefix + ")" + pattern
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, throwValue(Str("Invalid regex: " + err.Error()))
	}
	regexCache.Store(key, re)
	return re, nil
}

func installRegex(lib *Library) {
	lib.Builtin("regex_match", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, nil
		}
		re, err := compileRegex(Display(args[0]), flagsArg(args, 2))
		if err != nil {
			return Nil, err
		}
		ms := re.FindAllString(Display(args[1]), -1)
		if len(ms) == 0 {
			return Nil, nil
		}
		out := make([]Value, len(ms))
		for i, m := range ms {
			out[i] = Str(m)
		}
		return NewListValue(out), nil
	})
	replace := func(c *Call, args []Value) (Value, error) {
		if len(args) < 3 {
			return Nil, nil
		}
		re, err := compileRegex(Display(args[0]), flagsArg(args, 3))
		if err != nil {
			return Nil, err
		}
		src, repl := Display(args[2]), Display(args[1])
		if n := len(re.FindAllStringIndex(src, -1)); int64(len(src))+int64(n)*int64(len(repl)) > maxStringBytes {
			return Nil, runtimeError("regex_replace: string would exceed %d bytes", maxStringBytes)
		}
		return Str(re.ReplaceAllString(src, repl)), nil
	}
	lib.Builtin("regex_replace", replace)
	lib.Builtin("regex_replace_all", replace)
	lib.Builtin("regex_captures", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return NewListValue(nil), nil
		}
		re, err := compileRegex(Display(args[0]), flagsArg(args, 2))
		if err != nil {
			return Nil, err
		}
		text := Display(args[1])
		names := re.SubexpNames()
		var out []Value
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			d := NewDict(2)
			d.Set("match", Str(text[m[0]:m[1]]))
			var groups []Value
			for i := 1; i < len(m)/2; i++ {
				if m[2*i] < 0 {
					groups = append(groups, Nil)
					continue
				}
				g := Str(text[m[2*i]:m[2*i+1]])
				groups = append(groups, g)
				if names[i] != "" {
					d.Set(names[i], g)
				}
			}
			d.Set("groups", NewListValue(groups))
			out = append(out, DictValue(d))
		}
		return NewListValue(out), nil
	})
	lib.Builtin("regex_split", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, nil
		}
		re, err := compileRegex(Display(args[1]), flagsArg(args, 2))
		if err != nil {
			return Nil, err
		}
		parts := re.Split(Display(args[0]), -1)
		out := make([]Value, len(parts))
		for i, p := range parts {
			out[i] = Str(p)
		}
		return NewListValue(out), nil
	})
}

// flagsArg is an optional flags argument ("" when absent or nil).
func flagsArg(args []Value, i int) string {
	if v := Arg(args, i); v.k == KindString {
		return v.r.(string)
	}
	return ""
}

// stripExtended removes the insignificant whitespace and # comments of an
// extended-mode (x flag) pattern, outside character classes and escapes.
func stripExtended(p string) string {
	var b []byte
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b = append(b, c, p[i+1])
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
			b = append(b, c)
		case c == '[':
			inClass = true
			b = append(b, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
