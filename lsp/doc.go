// Package lsp is leia-lsp, the one language server for Harn and Leia. It
// speaks the Language Server Protocol 3.16 through glsp's protocol types
// and dispatcher, over a JSON-RPC stream (package wire) that survives
// malformed input.
//
// Layout, as in gopls: one file per request or notification
// (hover.go, definition.go, code_action.go, ...); each handler finds the
// document, looks up its language and delegates. Sub-packages:
//
//   - cache: open documents (immutable versions, incremental sync,
//     tree-sitter-shaped edits, a per-version syntax tree for languages that
//     register a cache.Syntax) and their analysis through the driver
//     registry harn-check uses, so editor and CI see the same diagnostics.
//   - mapper: byte offsets <-> UTF-16 protocol positions, diagnostics and
//     fixes -> protocol types. The only place positions change units.
//   - features: the plain-data interface language front ends implement for
//     hover, definition and the other editor features.
//   - tsquery: language-neutral syntax features from a tree-sitter grammar
//     (incremental trees, semantic tokens from highlights.scm, folds from
//     folds.scm).
//   - harnlang: Harn's syntax-level features (incremental tree, tokens,
//     folds, symbols from the AST, definition, references and hover of
//     names through locals.scm and relative imports).
//   - leialang: Leia's incremental tree, tokens, folds, and definition,
//     references, hover and completion of names.
//   - names: language-neutral name resolution from a grammar's
//     locals.scm (scopes, declarations, uses, visibility).
//   - wire: JSON-RPC framing that answers malformed frames and keeps going.
//   - lsptest: the in-process protocol client the tests drive the server
//     with, and the Fake language they control.
//
// A language plugs in as one value, a language.Language, in the list
// Options.Languages that cmd/leia-lsp assembles (the same values
// cmd/harn-check lists, so editor and CI agree): its check facet analyses
// documents, its editor facet gives the incremental tree (cache.Syntax)
// and hover, definition and the rest (features.Features). Nothing is
// registered process-wide; a test passes the languages it needs.
//
// Besides the protocol's methods the server answers leia/syntaxTree
// (MethodSyntaxTree): a document's current tree as an S-expression.
//
// Invariants: no checker logic lives here; the package calls the languages'
// checks and features and converts their answers. Only
// this package and its sub-packages import protocol or JSON-RPC types.
// Requests are handled one at a time in arrival order; diagnostics are
// computed in the background, debounced, and a result for a superseded
// version is dropped rather than published. A panic in a handler becomes an
// internal-error response; the server keeps running.
//
// Diagnostic code descriptions: every published diagnostic whose code has
// an explanation page links to it through codeDescription.href. By default
// the server writes the pages (the same text `harn-check explain CODE`
// prints) once per version into the user cache directory
// (leia-lsp/<version>/explain/CODE.md) and links the file: URI, which any
// editor can open; Options.ExplainHref overrides this.
package lsp
