// Package cache is the language server's state: the open documents, each an
// immutable snapshot (URI, language, version, text, line index) replaced
// wholesale on every change, and the diagnostics of a snapshot, computed at
// most once through the same driver registry the harn-check CLI uses.
//
// Applying a change records it as an Edit in the shape tree-sitter's
// InputEdit wants (start byte, old end byte, new end byte and the matching
// row/column points, columns in bytes). A language that registers a Syntax
// gets one tree per document version: the store hands Syntax.Parse the
// previous version's tree and the Edits, the front end copies the tree,
// applies the edits to the copy and reparses incrementally; trees are
// closed once their Document is unreachable.
//
// Invariants: the package knows nothing of LSP wire types or JSON; positions
// arrive as 0-based line and UTF-16 column pairs and are converted to byte
// offsets here, once, through diagnostics.LineIndex. It does no IO except
// what the registered checkers do.
package cache
