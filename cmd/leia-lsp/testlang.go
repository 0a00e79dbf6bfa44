//go:build leialsptest

package main

import (
	"log"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// registerTestLanguage registers the Fake language (extension .fake,
// languageId "fake") so the editor test can prove the whole path before
// the Harn and Leia front ends exist. Only builds with the leialsptest tag
// include it.
func registerTestLanguage(logger *log.Logger) {
	lsptest.RegisterFake()
	logger.Printf("test build: Fake language registered for .fake files")
}
