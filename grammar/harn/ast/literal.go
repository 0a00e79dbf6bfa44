package ast

import (
	"fmt"
	"math"
	"strings"
)

// durationUnits are the suffixes of duration literals, in milliseconds.
var durationUnits = []struct {
	suffix string
	millis int64
}{
	{"ms", 1},
	{"s", 1000},
	{"m", 60 * 1000},
	{"h", 60 * 60 * 1000},
	{"d", 24 * 60 * 60 * 1000},
	{"w", 7 * 24 * 60 * 60 * 1000},
}

// ParseInt reads the digits of an integer literal; overflow reports a
// value outside int64 (HARN-PAR-006).
func ParseInt(raw string) (value int64, overflow bool, err error) {
	if raw == "" {
		return 0, false, fmt.Errorf("empty integer literal")
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false, fmt.Errorf("integer literal %q: unexpected %q", raw, c)
		}
		d := int64(c - '0')
		if value > (math.MaxInt64-d)/10 {
			overflow = true
			continue
		}
		if !overflow {
			value = value*10 + d
		}
	}
	if overflow {
		return 0, true, nil
	}
	return value, false, nil
}

// ParseDuration converts a duration literal such as `500ms`, `30s` or `1d`
// to milliseconds.
func ParseDuration(raw string) (millis int64, overflow bool, err error) {
	for _, u := range durationUnits {
		digits, ok := strings.CutSuffix(raw, u.suffix)
		if !ok || digits == "" {
			continue
		}
		n, over, err := ParseInt(digits)
		if err != nil {
			continue
		}
		if over || n > math.MaxInt64/u.millis {
			return 0, true, nil
		}
		return n * u.millis, false, nil
	}
	return 0, false, fmt.Errorf("duration literal %q: want digits followed by ms, s, m, h, d or w", raw)
}

// DecodeEscape returns the text an escape sequence (`\n`, `\t`, `\\`,
// `\"`, `\$`, `\r`, `\0`) stands for. Any other `\x` keeps both characters.
func DecodeEscape(seq string) string {
	if len(seq) < 2 || seq[0] != '\\' {
		return seq
	}
	switch seq[1:] {
	case "n":
		return "\n"
	case "t":
		return "\t"
	case "r":
		return "\r"
	case "0":
		return "\x00"
	case "\\", "\"", "$":
		return seq[1:]
	}
	return seq
}

// RawStringBody strips the `r`, the hashes and the quotes of a raw string
// literal (`r"..."`, `r#"..."#`).
func RawStringBody(raw string) (string, error) {
	s, ok := strings.CutPrefix(raw, "r")
	if !ok {
		return "", fmt.Errorf("raw string %q does not start with r", raw)
	}
	hashes := len(s) - len(strings.TrimLeft(s, "#"))
	open := strings.Repeat("#", hashes) + `"`
	closing := `"` + strings.Repeat("#", hashes)
	if !strings.HasPrefix(s, open) || !strings.HasSuffix(s, closing) || len(s) < len(open)+len(closing) {
		return "", fmt.Errorf("raw string %q is not closed by %s", raw, closing)
	}
	return s[len(open) : len(s)-len(closing)], nil
}

// Dedent applies the multi-line string rules to the literal text of a
// `"""` string: a newline right after the opening quotes is dropped, the
// common leading indentation of non-empty lines is removed, and a final
// newline (with the closing quotes' indentation) is removed. Interpolations
// count as non-blank text; pass their positions as placeholders.
func Dedent(text string) string {
	text = strings.TrimPrefix(text, "\r\n")
	text = strings.TrimPrefix(text, "\n")
	lines := strings.Split(text, "\n")
	if last := lines[len(lines)-1]; strings.TrimSpace(last) == "" && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		} else if strings.TrimSpace(l) == "" {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
