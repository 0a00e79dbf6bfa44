// Package harn is the tree-sitter grammar of the Harn language: grammar.js,
// the hand-written external scanner (src/scanner.c), the editor queries
// (queries/*.scm) and the corpus (test/corpus/*.txt).
//
// The generated parser (src/parser.c, src/grammar.json, src/node-types.json)
// comes from grammar.js through the pure-Go generator in grammar/generate;
// the Go binding that exposes the language, and the lowering into the typed
// syntax tree of package ast, build on it. The tests of this package
// evaluate grammar.js, run it through the generator, build a parser with the
// scanner and check the corpus and the queries against it.
//
// Invariant: the grammar carries no semantics. Which names are types, which
// patterns a context allows and which calls are evaluation sites are decided
// by the checker.
package harn
