package booleanuse

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-031"

//go:embed doc.go
var doc string

// Rule is the booleanuse rule.
var Rule = &analysis.Rule{
	Name:  "booleanuse",
	Doc:   analysis.ExtractDoc(doc, "booleanuse"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Conditions {
		if !stdlib.IsOutcome(c.Type) {
			continue
		}
		text := p.Text(c.Expr.Pos())
		d := p.Diag(diagnostics.SourceType, code, c.Expr.Pos(), "%s is an evaluation outcome (%s), not a boolean; every outcome, refusals included, is truthy", text, c.Type)
		d.Help = `match its kind first and read the answer in its arm: match ` + text + `.kind { "verdict" -> { if ` + text + `.value.verdict { ... } } _ -> { ... } }`
		p.Report(d)
	}
}
