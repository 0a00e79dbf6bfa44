package rethrow

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-014"

//go:embed doc.go
var doc string

// Rule is the rethrow rule.
var Rule = &analysis.Rule{
	Name:  "rethrow",
	Doc:   analysis.ExtractDoc(doc, "rethrow"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, span := range p.Facts.TopLevelRethrows {
		d := p.Diag(diagnostics.SourceType, code, span, "try* requires an enclosing function (fn, tool, or pipeline) so the rethrow has a target")
		d.Help = "move the expression into a fn, tool or pipeline, or handle the error here with try { } catch"
		p.Report(d)
	}
}
