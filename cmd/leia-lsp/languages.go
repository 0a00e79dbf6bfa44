package main

import (
	"log"

	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lsp/harnlang"
	"github.com/harnlang/harn-check/lsp/leialang"
)

// registerLanguages wires the language front ends into the driver (the
// same frontends.Register harn-check calls, so the editor shows what CI
// reports) and the editor features: Harn's incremental tree, tokens,
// folds, symbols, definition, references and hover (lsp/harnlang), and
// Leia's incremental tree, tokens and folds (lsp/leialang).
func registerLanguages(logger *log.Logger) {
	frontends.Register()
	if err := harnlang.Register(); err != nil {
		logger.Printf("Harn editor features unavailable: %v", err)
	}
	if err := leialang.Register(); err != nil {
		logger.Printf("Leia editor features unavailable: %v", err)
	}
	registerTestLanguage(logger)
}
