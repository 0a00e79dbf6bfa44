// Package lex is the lexical half of the tree-sitter parser generator: it
// compiles a grammar's tokens into one NFA (Expand), analyses how tokens
// overlap (ConflictMap, CoincidentIndex), picks keywords and the
// error-recovery tokens, builds the per-parse-state lexer DFAs (BuildLexTables)
// and renders them as the C functions ts_lex and ts_lex_keywords.
//
// Every stage reproduces the official CLI's behaviour (tree-sitter's
// generate crate, versions 0.20-0.25): the same NFA shape, the same
// preference rules when tokens compete, the same lex-state merging,
// minimization and state order, and the same C text. Given the CLI's token
// list and parse states it yields byte-identical lexers; the known
// exception is Unicode property tables, which come from Go's unicode
// package (Unicode 15.0) where CLI 0.25 uses Unicode 16.0.
//
// Invariants: the package knows nothing of the syntactic grammar beyond
// token indices and per-state token sets; it does no IO; output depends only
// on its inputs (no map-order effects); a bad token yields a *TokenError
// naming it, never a panic.
//
// Sub-packages: charset (code-point range sets) and regex (the pattern
// dialect).
package lex
