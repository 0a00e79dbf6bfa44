package lex

import (
	"sync"

	"github.com/harnlang/harn-check/grammar/generate/lex/charset"
	"github.com/harnlang/harn-check/grammar/generate/lex/regex"
)

var (
	alphabeticOnce sync.Once
	alphabeticSet  charset.Set
)

// isAlphabetic is Unicode's Alphabetic property (Rust's char::is_alphabetic).
func isAlphabetic(r rune) bool {
	alphabeticOnce.Do(func() {
		n, err := regex.Parse(`\p{Alphabetic}`, false)
		if err != nil {
			panic(err) // the table is built in; a failure is a programming error
		}
		alphabeticSet = n.Set
	})
	return alphabeticSet.Contains(r)
}
