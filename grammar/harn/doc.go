// Package harn is the tree-sitter grammar of the Harn language: grammar.js,
// the hand-written external scanner (src/scanner.c), the editor queries
// (queries/*.scm) and the corpus (test/corpus/*.txt).
//
// The generated parser (src/parser.c, src/tree_sitter/parser.h,
// src/grammar.json, src/node-types.json) comes from grammar.js through the
// pure-Go generator in grammar/generate (`go generate ./grammar/harn`), which
// also stamps binding/parser_stamp.go with a digest of the C sources so the
// Go build cache rebuilds the binding when they change.
// Subpackages: ast (the typed syntax tree), lower (tree to ast), syntaxdiag
// (syntax errors as HARN-PAR diagnostics) and binding (the Go binding; it
// needs the generated parser). The tests of this package evaluate grammar.js,
// run it through the generator, build a parser with the scanner and check
// the corpus, the queries, the examples and incremental reparsing.
//
// Invariant: the grammar carries no semantics. Which names are types, which
// patterns a context allows and which calls are evaluation sites are decided
// by the checker.
package harn

//go:generate go run ../../cmd/tsgen -o src grammar.js
//go:generate go run ../internal/stamp
