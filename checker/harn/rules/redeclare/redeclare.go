package redeclare

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-NAM-004"

//go:embed doc.go
var doc string

// Rule is the redeclare rule.
var Rule = &analysis.Rule{
	Name:  "redeclare",
	Doc:   analysis.ExtractDoc(doc, "redeclare"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, r := range p.Facts.Redeclarations {
		d := p.Diag(diagnostics.SourceType, code, r.Span, "Cannot redeclare immutable variable '%s' in the same scope (use 'var' for mutable bindings)", r.Name)
		d.Related = []diagnostics.Related{{Span: analysis.Span(r.Prev), Message: r.Name + " first declared here"}}
		d.Help = "give the new binding another name, declare the first with var and assign it, or move one into a block"
		p.Report(d)
	}
}
