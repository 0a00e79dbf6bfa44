// Package booleanuse defines the booleanuse rule.
//
// # Rule booleanuse
//
// booleanuse: an evaluation outcome is not a boolean (HARN-TYP-031).
//
// EvaluationOutcome and PredicateOutcome are tagged unions; every arm,
// refusals included, is a non-empty record and therefore truthy. Using
// one as the condition of if, while, guard, require or a ternary, or as an
// operand of !, && or ||, treats a refusal as a yes. Outcome-ness is
// nominal: after removing nil, every member must be one of std/predicate's
// outcome variants (a user record {kind: "verdict", receipt: "x"} is not
// one). Match the kind and read the verdict in the "verdict" arm instead.
package booleanuse

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-031"

// Rule is the booleanuse rule.
var Rule = &analysis.Rule{
	Name:  "booleanuse",
	Doc:   "booleanuse: an evaluation outcome is not a boolean (HARN-TYP-031)",
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
