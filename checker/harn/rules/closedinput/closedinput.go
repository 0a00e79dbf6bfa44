package closedinput

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-030"

//go:embed doc.go
var doc string

// Rule is the closedinput rule.
var Rule = &analysis.Rule{
	Name:  "closedinput",
	Doc:   analysis.ExtractDoc(doc, "closedinput"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, s := range p.Facts.Sites {
		if s.ReceiverProblem != "" {
			continue
		}
		what := "state"
		if s.Method == stdlib.MethodEvaluatePredicate {
			what = "input"
		}
		if s.Input != nil {
			check(p, s, what, s.Input, s.InputSpan)
		}
		if s.Policy.Present {
			check(p, s, "policy", s.Policy.Type, s.Policy.Span)
		}
		if s.RuntimeAdmission && s.QuestionsType != nil {
			check(p, s, "question map", s.QuestionsType, s.QuestionSpan)
		}
	}
}

func check(p *analysis.Pass, s *analysis.Site, what string, t types.Type, span ast.Span) {
	prob, ok := types.CheckSerializable(t)
	if ok {
		return
	}
	msg := prob.String()
	if types.IsGradual(t) {
		msg = "its type cannot be inferred (" + t.String() + ")"
	}
	d := p.Diag(diagnostics.SourceType, code, span, "the %s of %s is not a closed serializable type: %s", what, s.Method, msg)
	d.Help = "annotate the value with a closed shape (e.g. {claim: string, score: int}) and validate external data into it before the call"
	p.Report(d)
	s.Reject(code)
}
