//go:build leialsptest

package main

import (
	"log"

	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

// testLanguages is the Fake language (extension .fake, languageId
// "fake"), so the editor test can prove the whole path before the Harn and
// Leia front ends exist. Only builds with the leialsptest tag include it.
func testLanguages(logger *log.Logger) []language.Language {
	logger.Printf("test build: Fake language served for .fake files")
	return []language.Language{lsptest.Fake}
}
