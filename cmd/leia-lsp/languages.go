package main

import "log"

// registerLanguages wires the language front ends into the driver and
// feature registries. The Harn and Leia front ends register here once they
// exist (a blank import of their packages, as cmd/harn-check will do, plus
// features.Register for their editor features).
//
// TODO(issue 9): import the Harn and Leia checkers and register their
// features.Features implementations.
func registerLanguages(logger *log.Logger) {
	registerTestLanguage(logger)
}
