package main

import (
	"log"

	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/language/harn"
	"github.com/harnlang/harn-check/language/leia"
)

// languages are the languages leia-lsp serves: the same values harn-check
// lists, so the editor shows what CI reports, here with their editor
// facets (Harn's and Leia's incremental trees, tokens, folds, symbols,
// definition, references, hover and the rest); a test build adds the
// Fake language (testlang.go).
func languages(logger *log.Logger) []language.Language {
	return append([]language.Language{harn.Language, leia.Language}, testLanguages(logger)...)
}
