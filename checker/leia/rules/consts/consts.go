package consts

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "LEIA4002"

//go:embed doc.go
var doc string

// Rule is the consts rule.
var Rule = &analysis.Rule{
	Name:  "consts",
	Doc:   analysis.ExtractDoc(doc, "consts"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, w := range p.Facts.ConstWrites {
		d := p.Diag(diagnostics.SourceType, code, w.Target.Span, "cannot assign to %s: it is a constant", w.Target.Name)
		if w.Binding.Ident != nil {
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(w.Binding.Ident.Span), Message: "declared const here"})
		}
		d.Help = "declare it with := instead of const if it must change, or assign a new name"
		p.Report(d)
	}
}
