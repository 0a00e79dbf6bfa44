package names

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const (
	codeVariable = "HARN-NAM-001"
	codeFunction = "HARN-NAM-002"
)

//go:embed doc.go
var doc string

// Rule is the names rule.
var Rule = &analysis.Rule{
	Name:  "names",
	Doc:   analysis.ExtractDoc(doc, "names"),
	Codes: []string{codeVariable, codeFunction},
	Run:   run,
}

func run(p *analysis.Pass) {
	if p.Facts.Degraded {
		return
	}
	for _, u := range p.Facts.Unresolved {
		if u.Call {
			d := p.Diag(diagnostics.SourceType, codeFunction, u.Ident.Span, "undefined function %s", u.Ident.Name)
			d.Help = "declare it, import it (import {" + u.Ident.Name + "} from \"./module\"), or fix the spelling"
			p.Report(d)
			continue
		}
		d := p.Diag(diagnostics.SourceType, codeVariable, u.Ident.Span, "undefined variable %s", u.Ident.Name)
		d.Help = "declare it with const or let before this use, or fix the spelling"
		p.Report(d)
	}
}
