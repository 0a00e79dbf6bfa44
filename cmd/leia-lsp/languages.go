package main

import (
	"log"

	"github.com/harnlang/harn-check/internal/frontends"
)

// registerLanguages wires the language front ends into the driver (the
// same frontends.Register harn-check calls, so the editor shows what CI
// reports) and the feature registries.
//
// TODO(issue 9): register the Harn and Leia features.Features
// implementations and their incremental syntax trees.
func registerLanguages(logger *log.Logger) {
	frontends.Register()
	registerTestLanguage(logger)
}
