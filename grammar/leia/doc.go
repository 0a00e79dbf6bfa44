// Package leia holds the tree-sitter grammar of Leia: grammar.js, the
// hand-written external scanner in src/scanner.c, the queries under
// queries/ and the corpus under test/corpus.
//
// The Go code here only checks those files against each other: the grammar
// evaluates and passes the generator's preparation stage, and every node
// type and field named by a query or a corpus tree exists in the grammar.
// The typed syntax tree lives in package ast below this one.
//
// Invariant: the grammar carries no semantics. Which tag a tagged block
// uses (tool, agent, model, ...) and whether a legacy declaration form was
// used are decided by package ast and the checker, not here.
package leia

// Generated files (src/parser.c, src/tree_sitter/parser.h, src/grammar.json,
// src/node-types.json) come from grammar.js through our generator.
//go:generate go run ../../cmd/tsgen -o src grammar.js
//go:generate go run ../internal/stamp
