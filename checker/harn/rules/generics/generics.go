package generics

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-010"

//go:embed doc.go
var doc string

// Rule is the generics rule.
var Rule = &analysis.Rule{
	Name:  "generics",
	Doc:   analysis.ExtractDoc(doc, "generics"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, g := range p.Facts.GenericConflicts {
		d := p.Diag(diagnostics.SourceType, code, g.Span, "type parameter '%s' was inferred as both %s and %s", g.Param, types.Describe(g.First), types.Describe(g.Second))
		d.Help = "pass arguments of one type for every parameter of type " + g.Param + " of " + g.Func + ", or give the parameters different type parameters"
		p.Report(d)
	}
}
