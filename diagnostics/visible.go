package diagnostics

import (
	"strings"
	"unicode/utf8"
)

// visibleRune returns what a terminal renderer shows for r, and whether r
// is replaced. Control characters are never written to a terminal: a C0
// control or DEL shows as its Unicode control picture (U+2400 block: ␀ ␛
// ␡), a C1 control (which some terminals obey like ESC sequences) and the
// bidirectional overrides and isolates (which reorder what the reader
// sees, as in "Trojan Source") as U+FFFD. Tab is the caller's business.
func visibleRune(r rune) (rune, bool) {
	switch {
	case r < 0x20:
		return 0x2400 + r, true
	case r == 0x7f:
		return 0x2421, true
	case r >= 0x80 && r <= 0x9f,
		r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069:
		return utf8.RuneError, true
	}
	return r, false
}

// Visible returns s as it is safe to print on a terminal: control
// characters other than newline and tab are replaced as visibleRune says,
// and invalid UTF-8 by U+FFFD. Messages and help texts can quote source
// text, so every text renderer passes them through it.
func Visible(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || (r != '\n' && r != '\t' && isReplaced(r)) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		default:
			v, _ := visibleRune(r)
			b.WriteRune(v)
		}
	}
	return b.String()
}

func isReplaced(r rune) bool {
	_, replaced := visibleRune(r)
	return replaced
}
