// Package leialang is the Leia language's editor features for leia-lsp:
// an incremental tree-sitter tree per document, semantic tokens and
// folding ranges from grammar/leia's highlights.scm and folds.scm,
// definition, references, rename and hover of names as the checker
// resolves them (the semantic model of the document's latest check; the
// syntax-only resolver of package names over locals.scm for a document
// that does not parse or text edited since), completion of the names
// locals.scm finds and of the predeclared names of lang/leia/stdlib, and
// document and
// workspace symbols of the top-level declarations, signature help for
// calls of functions declared in the file, and rename within the file.
//
// New makes it; language/leia puts it into Leia's Language value as the
// editor facet (a cache.Syntax and a features.Features): checking, and so
// diagnostics, comes from the check facet of the same value, which
// harn-check and leia-lsp share.
//
// Invariants: no LSP types and no checker logic.
package leialang

import (
	"fmt"

	leiagrammar "github.com/harnlang/harn-check/grammar/leia"
	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// Extension is the file extension of the documents the features serve.
const Extension = ".leia"

// New compiles the Leia queries into Features and returns them with the
// incremental Syntax. An error means an embedded query does not fit the
// compiled grammar (a build problem).
func New() (*Features, *tsquery.Syntax, error) {
	lang := binding.Language()
	q, err := tsquery.NewQueries(lang, leiagrammar.HighlightsQuery(), leiagrammar.FoldsQuery())
	if err != nil {
		return nil, nil, fmt.Errorf("leia queries: %w", err)
	}
	r, err := names.New(lang, resolverOptions())
	if err != nil {
		return nil, nil, fmt.Errorf("leia names: %w", err)
	}
	return &Features{Features: tsquery.Features{Queries: q}, names: r}, tsquery.NewSyntax(lang), nil
}
