package discarded

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-032"

//go:embed doc.go
var doc string

// Rule is the discarded rule.
var Rule = &analysis.Rule{
	Name:  "discarded",
	Doc:   analysis.ExtractDoc(doc, "discarded"),
	Codes: []string{code},
	Run:   run,
}

const help = "match its kind (match o.kind { ... }), return it, or pass it to a function that handles it"

func run(p *analysis.Pass) {
	for _, d := range p.Facts.Discards {
		if !stdlib.IsOutcome(d.Type) {
			continue
		}
		msg := "the evaluation outcome of this expression is discarded"
		if d.Kind == "discard binding" {
			msg = "the evaluation outcome is bound to _ and discarded"
		}
		diag := p.Diag(diagnostics.SourceType, code, d.Span, "%s; refusals and low-confidence answers would go unhandled", msg)
		diag.Help = help
		p.Report(diag)
	}
	for _, b := range p.Facts.Bindings {
		if b.Param || b.Uses > 0 || !stdlib.IsOutcome(b.Type) {
			continue
		}
		diag := p.Diag(diagnostics.SourceType, code, b.Span, "the evaluation outcome bound to %s is never used; refusals and low-confidence answers would go unhandled", b.Name)
		diag.Help = help
		p.Report(diag)
	}
}
