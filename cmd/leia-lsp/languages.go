package main

import (
	"log"

	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lsp/harnlang"
)

// registerLanguages wires the language front ends into the driver (the
// same frontends.Register harn-check calls, so the editor shows what CI
// reports) and the editor features: Harn's incremental tree, tokens,
// folds, symbols, definition, references and hover (lsp/harnlang).
//
// TODO(issue 9): the Leia features once grammar/leia exports its queries.
func registerLanguages(logger *log.Logger) {
	frontends.Register()
	if err := harnlang.Register(); err != nil {
		logger.Printf("Harn editor features unavailable: %v", err)
	}
	registerTestLanguage(logger)
}
