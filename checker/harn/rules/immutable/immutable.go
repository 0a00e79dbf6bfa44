package immutable

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-OWN-001"

//go:embed doc.go
var doc string

// Rule is the immutable rule.
var Rule = &analysis.Rule{
	Name:  "immutable",
	Doc:   analysis.ExtractDoc(doc, "immutable"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, w := range p.Facts.ImmutableWrites {
		d := p.Diag(diagnostics.SourceLint, code, w.Span, "Cannot assign to '%s': variable is immutable (declared with '%s')", w.Name, w.Kind)
		d.Related = []diagnostics.Related{{Span: analysis.Span(w.Decl), Message: w.Name + " declared with " + w.Kind + " here"}}
		d.Help = "declare it with var to assign it again, or bind the new value to a new name"
		p.Report(d)
	}
}
