package paramorder

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-PAR-007"

//go:embed doc.go
var doc string

// Rule is the paramorder rule.
var Rule = &analysis.Rule{
	Name:  "paramorder",
	Doc:   analysis.ExtractDoc(doc, "paramorder"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, o := range p.Facts.ParamOrders {
		d := p.Diag(diagnostics.SourceParser, code, o.Span, "Required parameter cannot follow a parameter with a default value")
		d.Related = []diagnostics.Related{{Span: analysis.Span(o.Defaulted), Message: "the first parameter with a default"}}
		d.Help = "move the required parameters before the ones with defaults, or give this one a default too"
		p.Report(d)
	}
}
