// Package questionset defines the questionset rule.
//
// # Rule questionset
//
// questionset: the question set of harness.llm.evaluate must be readable
// at the call (HARN-TYP-036).
//
// The checker reads the question set to type every answer and to record
// the site's questions in the manifest. Readable means: the third argument
// is a dict literal (not a variable, parameter or computed value) with at
// least one entry; each key is an identifier or a non-empty string
// literal, unique in the set; each value is a direct call of boolean,
// choice or score (by the `kind` of the shape it builds) whose
// instructions are a non-empty string literal; a choice's options are a
// dict literal with literal keys and a score's levels a list literal of
// non-empty strings; a choice or score has at least one label and no label
// twice. A set that cannot be read declares no site. For a question set
// computed at run time, use harness.llm.evaluate_request.
package questionset

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-036"

// Rule is the questionset rule.
var Rule = &analysis.Rule{
	Name:  "questionset",
	Doc:   "questionset: the question set of harness.llm.evaluate must be readable at the call (HARN-TYP-036)",
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
			d.Related = []diagnostics.Related{{Span: analysis.Span(s.Span), Message: "the evaluation site"}}
			d.Help = "write the questions at the call as {id: boolean(\"...\"), id2: choice(\"...\", {label: \"...\"}), ...}; use evaluate_request for a set known only at run time"
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
