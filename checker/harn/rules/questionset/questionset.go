package questionset

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-036"

//go:embed doc.go
var doc string

// Rule is the questionset rule.
var Rule = &analysis.Rule{
	Name:  "questionset",
	Doc:   analysis.ExtractDoc(doc, "questionset"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, s := range p.Facts.Sites {
		if s.Method != stdlib.MethodEvaluate || s.ReceiverProblem != "" {
			continue
		}
		for _, prob := range s.QuestionProblems {
			d := p.Diag(diagnostics.SourceType, code, prob.Span, "question set of site %s cannot be read: %s", siteName(s), prob.Message)
			if prob.Earlier != nil {
				d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(*prob.Earlier), Message: "first declared here"})
				d.Help = "remove or rename the duplicate: ids and labels must be unique, or answers cannot be told apart"
			}
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(s.ReceiverSpan), Message: "the evaluation site"})
			if d.Help == "" {
				d.Help = "write the questions at the call as {id: boolean(\"...\"), id2: choice(\"...\", {label: \"...\"}), ...}; use evaluate_request for a set known only at run time"
			}
			p.Report(d)
		}
		if len(s.QuestionProblems) > 0 {
			s.Reject(code)
		}
	}
}

func siteName(s *analysis.Site) string {
	if s.ID != "" {
		return `"` + s.ID + `"`
	}
	return "at this call"
}
