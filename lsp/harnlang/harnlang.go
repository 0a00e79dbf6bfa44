// Package harnlang is the Harn language's editor features for leia-lsp:
// an incremental tree-sitter tree per document, semantic tokens and
// folding ranges from grammar/harn's highlights.scm and folds.scm,
// document and workspace symbols from the Harn AST, and definition,
// references, rename and hover of names as the checker resolves them (the
// semantic model of the document's latest check, features.Document.Model),
// followed into the relative modules the file imports. The syntax-only
// resolver (package names over locals.scm) answers for a document that
// does not parse, for text edited since the latest check and for the
// other files of the workspace, and describes declarations for hover.
//
// New makes it; language/harn puts it into Harn's Language value as the
// editor facet (a cache.Syntax and a features.Features): checking, and so
// diagnostics, comes from the check facet of the same value, which
// harn-check and leia-lsp share.
//
// Invariants: no LSP types and no checker logic; answers are byte spans
// into the request's document (or into another file named by path), and
// a broken tree gives partial answers, never a panic.
package harnlang

import (
	"context"
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	harngrammar "github.com/harnlang/harn-check/grammar/harn"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/lang/model"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// Extension is the file extension of the documents the features serve.
const Extension = ".harn"

// New compiles the Harn queries into a Features. An error means an
// embedded query does not fit the compiled grammar (a build problem).
func New() (*Features, error) {
	lang := binding.Language()
	q, err := tsquery.NewQueries(lang, harngrammar.HighlightsQuery(), harngrammar.FoldsQuery())
	if err != nil {
		return nil, fmt.Errorf("harn queries: %w", err)
	}
	resolver, err := names.New(lang, resolverOptions(harngrammar.LocalsQuery()))
	if err != nil {
		return nil, fmt.Errorf("harn names: %w", err)
	}
	return &Features{
		Features: tsquery.Features{Queries: q},
		syntax:   tsquery.NewSyntax(lang, "union_type", "intersection_type"),
		names:    resolver,
		disk:     map[string]diskSymbols{},
	}, nil
}

// Features are Harn's syntax-level editor features. Semantic tokens and
// folding ranges come from the embedded tsquery.Features.
type Features struct {
	tsquery.Features
	syntax *tsquery.Syntax

	names *names.Resolver

	mu   sync.Mutex
	disk map[string]diskSymbols // workspace files not open, by path
}

// Syntax returns the incremental tree-sitter syntax of Harn documents.
func (f *Features) Syntax() cache.Syntax { return f.syntax }

// treeOf returns the document's tree, parsing the text when the document
// came without one.
func treeOf(doc features.Document) (*sitter.Tree, func()) {
	if t, ok := doc.Tree.(*tsquery.Tree); ok && t != nil && t.T != nil {
		return t.T, func() {}
	}
	t := binding.ParseTree(doc.Text, nil)
	if t == nil {
		return nil, func() {}
	}
	return t, t.Close
}

// fileOf lowers a tree to the Harn AST, as the checker does: a tree
// nested deeper than the limit becomes one Error node, so that no feature
// walks it level by level.
func fileOf(tree *sitter.Tree, src []byte) *ast.File {
	file, _ := binding.Lowered("", src, tree, binding.Options{})
	return file
}

// Definition implements features.Features: the declaration of the name at
// offset, in this file or in a relative module it imports.
func (f *Features) Definition(ctx context.Context, s features.Snapshot, offset int) ([]features.Location, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	if n, ok := checkedNameAt(s, tree, offset); ok {
		if n.def < 0 {
			return nil, nil
		}
		if n.d.Kind == kindImport {
			if loc, ok := f.importTarget(s, n.d.Module, n.d.Name); ok {
				return []features.Location{loc}, nil
			}
		}
		return []features.Location{{Span: n.d.Span}}, nil
	}
	ix := f.names.IndexContext(ctx, tree, s.Doc.Text)
	if ix == nil {
		return nil, ctx.Err() // cancelled
	}
	d := ix.ResolveAt(offset)
	if d == nil {
		return nil, nil
	}
	if d.Kind == kindImport {
		if loc, ok := f.importTarget(s, d.Module, d.Name); ok {
			return []features.Location{loc}, nil
		}
	}
	return []features.Location{{Span: d.Span}}, nil
}

// checkedName is a name as the checker's model resolves it.
type checkedName struct {
	e *model.Edited
	// def indexes the model's definitions, -1 when the checker resolved
	// no name at the offset; d is that definition and use the name's
	// span, in the document's text.
	def int
	d   model.Def
	use diagnostics.Span
}

// checkedName returns what the checker's model says about the name at
// offset, false when the features answer from the syntax-only resolver
// (features.Document.Names: the tree has a syntax error, no check gave a
// model, or the text there changed since).
func checkedNameAt(s features.Snapshot, tree *sitter.Tree, offset int) (checkedName, bool) {
	n, ok := s.Doc.NameAt(!tree.RootNode().HasError(), offset)
	return checkedName{e: n.Model, def: n.Def, d: n.Decl, use: n.Use}, ok
}

// Hover implements features.Features: the declaration the name at offset
// resolves to, as written, with its doc comment and the name's inferred
// type there (after narrowing); on a member read's name, the read and its
// inferred type; elsewhere in an evaluation call (the method name, the
// punctuation, the literals), the site's facts from the predicate-site
// manifest: id, question census, digests, outcome schema and effects.
func (f *Features) Hover(ctx context.Context, s features.Snapshot, offset int) (*features.Hover, error) {
	tree, done := treeOf(s.Doc)
	defer done()
	if tree == nil {
		return nil, nil
	}
	// The syntax index of the whole file is built only when the
	// checker's model does not answer: on a version just changed, a name
	// the model knows is described from the nodes around its declaration.
	var ix *names.Index
	index := func() *names.Index {
		if ix == nil {
			ix = f.names.IndexContext(ctx, tree, s.Doc.Text)
		}
		return ix
	}
	d, use, named, ok := f.hoveredName(s, tree, index, offset)
	if !ok {
		return nil, ctx.Err() // cancelled
	}
	if d == nil {
		if index() == nil {
			return nil, ctx.Err()
		}
		if md, sp, ok := builtinAt(tree, ix, s.Doc.Text, offset); ok {
			return &features.Hover{Span: sp, Markdown: md}, nil
		}
		// A member read shows its inferred type, unless it is the callee
		// of an evaluation call; elsewhere in an evaluation call the
		// site's facts come from the check (the predicate-site manifest).
		if n := tree.RootNode().NamedDescendantForByteRange(uint(offset), uint(offset)); n != nil &&
			n.Parent() != nil && !evaluateCallee(n.Parent(), s.Doc.Text) {
			if h := kindMemberHover(s, tree, offset); h != nil {
				return h, nil
			}
			if h := typeHover(s, tree, offset); h != nil {
				return h, nil
			}
		}
		return siteHover(s, tree, offset), nil
	}
	if !named {
		return nil, nil
	}
	src := s.Doc.Text
	typed := ""
	if t, ok := nameType(s, tree, use.Start, use.End); ok {
		typed = "\n\n" + typeLine(t)
	}
	if d.Kind == kindImport {
		if loc, ok := f.importTarget(s, d.Module, d.Name); ok && loc.Path != "" {
			if other, err := s.Workspace.ReadFile(loc.Path); err == nil {
				if t := binding.ParseTree(other, nil); t != nil {
					defer t.Close()
					oix := f.names.Index(t, other)
					if od := oix.DefAtName(loc.Span); od != nil {
						return &features.Hover{Span: use, Markdown: hoverText(other, od) + typed + "\n\nfrom `" + d.Module + "`"}, nil
					}
				}
			}
		}
	}
	return &features.Hover{Span: use, Markdown: hoverText(src, d) + typed}, nil
}

// hoveredName returns the declaration the name at offset denotes, as the
// checker's model resolves it (the syntax-only resolver when the document
// does not parse or the model does not know the offset), described as
// the syntax index describes it, and the span of the name; nil when it
// denotes no declaration. index builds the syntax index when needed; ok
// is false when that was cancelled.
func (f *Features) hoveredName(s features.Snapshot, tree *sitter.Tree, index func() *names.Index, offset int) (d *names.Def, use diagnostics.Span, named, ok bool) {
	n, checked := checkedNameAt(s, tree, offset)
	if !checked {
		ix := index()
		if ix == nil {
			return nil, diagnostics.Span{}, false, false
		}
		use, named := ix.NameAt(offset)
		return ix.ResolveAt(offset), use, named, true
	}
	if n.def < 0 {
		return nil, diagnostics.Span{}, false, true
	}
	return describe(f.names.DefAt(tree.RootNode(), s.Doc.Text, n.d.Span), n.d), n.use, true, true
}

// describe returns the syntax's description of a definition of the
// model (names.Resolver.DefAt: its declaration as written and the comment
// above it), or, for a declaration the syntax does not list (a name a
// whole-module import brings, a field of an eval pack), one made of the
// model's facts.
func describe(d *names.Def, m model.Def) *names.Def {
	if d != nil && d.Name == m.Name {
		if m.Module != "" {
			d.Module = m.Module
		}
		return d
	}
	return &names.Def{Name: m.Name, Kind: m.Kind, Span: m.Span, Decl: m.Span, Module: m.Module}
}

// PrepareRename and Rename are in rename.go (locals) and
// rename_workspace.go (top-level names across the workspace).

var _ features.Features = (*Features)(nil)

// span converts an AST span.
func span(s ast.Span) diagnostics.Span { return diagnostics.Span{Start: s.Start, End: s.End} }
