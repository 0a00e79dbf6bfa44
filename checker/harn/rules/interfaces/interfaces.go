package interfaces

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-011"

//go:embed doc.go
var doc string

// Rule is the interfaces rule.
var Rule = &analysis.Rule{
	Name:  "interfaces",
	Doc:   analysis.ExtractDoc(doc, "interfaces"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, m := range p.Facts.InterfaceMismatches {
		d := p.Diag(diagnostics.SourceType, code, m.Span, "Type '%s' does not satisfy interface '%s': %s (required by constraint `where %s: %s`)", m.Type, m.Interface, m.Reason, m.TypeParam, m.Interface)
		d.Help = "add or fix the method in the impl block of " + m.Type + ", or pass a type that implements " + m.Interface
		p.Report(d)
	}
}
