// Package english holds the small grammar the tools' messages share, so
// that every message says "an int" and "1 file" the same way.
package english

import "strconv"

// A returns noun with its indefinite article: "an int", "a string". The
// choice goes by the first letter (a vowel takes "an"), which is right
// for the type and kind names messages use.
func A(noun string) string {
	if noun == "" {
		return noun
	}
	switch noun[0] {
	case 'a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U':
		return "an " + noun
	}
	return "a " + noun
}

// Count returns n and the noun, singular for 1: "1 file", "3 files".
// plural is the noun's plural form.
func Count(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + plural
}
