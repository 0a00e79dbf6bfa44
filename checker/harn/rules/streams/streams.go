package streams

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-012"

//go:embed doc.go
var doc string

// Rule is the streams rule.
var Rule = &analysis.Rule{
	Name:  "streams",
	Doc:   analysis.ExtractDoc(doc, "streams"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, m := range p.Facts.StreamMisuses {
		if m.Yield {
			d := p.Diag(diagnostics.SourceType, code, m.Span, "`yield` is not a stream emit; use `emit` inside `gen fn`")
			d.Help = "write emit instead of yield, or declare a plain fn to produce a Generator"
			p.Report(d)
			continue
		}
		d := p.Diag(diagnostics.SourceType, code, m.Span, "`emit` can only be used inside a `gen fn`")
		d.Help = "declare the function with gen fn, or use yield to produce a Generator"
		p.Report(d)
	}
}
