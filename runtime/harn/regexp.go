package harn

import (
	"regexp"
	"sync"
)

// Regular expressions (Go's RE2 syntax; upstream uses Rust's regex crate,
// which accepts the same syntax for everything but a few Perl classes),
// compiled once per process for the regex builtins, schema patterns and
// tool search.

var regexCache sync.Map // flags+"\x00"+pattern -> *regexp.Regexp

// CompileRegex compiles pattern with upstream's flags (i, m, s and x for
// extended mode), caching the result; a bad pattern or flag is a thrown
// "Invalid regex: ..." error.
func CompileRegex(pattern, flags string) (*regexp.Regexp, error) {
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
