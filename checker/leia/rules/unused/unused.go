package unused

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA4007"

//go:embed doc.go
var doc string

// Rule is the unused rule.
var Rule = &analysis.Rule{
	Name:  "unused",
	Doc:   analysis.ExtractDoc(doc, "unused"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, b := range p.Facts.Bindings {
		if b.TopLevel || b.Reads > 0 || b.Ident == nil || b.Name == "_" {
			continue
		}
		switch b.Kind {
		case semantic.Var, semantic.Const, semantic.Func:
		default:
			continue
		}
		what := "local"
		if b.Kind == semantic.Func {
			what = "function"
		}
		d := p.Diag(diagnostics.SourceLint, code, b.Ident.Span, "%s %s is declared but never used", what, b.Name)
		if decl, ok := b.Decl.(*ast.DeclareStmt); ok && len(decl.Left) > 1 {
			d.Help = "write _ in its place to drop the value"
			d.Fixes = append(d.Fixes, diagnostics.Fix{Title: "Replace " + b.Name + " with _",
				Edits: []diagnostics.TextEdit{{Span: analysis.Span(b.Ident.Span), NewText: "_"}}})
		} else {
			d.Help = "remove it, or use it"
		}
		p.Report(d)
	}
}
