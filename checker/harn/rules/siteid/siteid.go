package siteid

import (
	_ "embed"

	"fmt"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-033"

//go:embed doc.go
var doc string

// Rule is the siteid rule.
var Rule = &analysis.Rule{
	Name:  "siteid",
	Doc:   analysis.ExtractDoc(doc, "siteid"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	first := map[string]*analysis.Site{}
	for _, s := range p.Facts.Sites {
		if s.ReceiverProblem != "" {
			d := p.Diag(diagnostics.SourceType, code, s.ReceiverSpan, "evaluation site hidden from the checker: %s", s.ReceiverProblem)
			d.Help = "call the method directly on a HarnessLlm value, e.g. harness.llm." + s.Method + "(...); keep the receiver's static type"
			p.Report(d)
			s.Reject(code)
			continue
		}
		if s.IDProblem != "" {
			d := p.Diag(diagnostics.SourceType, code, s.IDSpan, "%s: %s", s.Method, s.IDProblem)
			d.Help = `write the id as a non-empty string literal, such as "review.fit.v1"; to reuse a site, call a typed helper function`
			p.Report(d)
			s.Reject(code)
		}
		if s.QuestionTextProblem != "" {
			d := p.Diag(diagnostics.SourceType, code, s.QuestionSpan, "evaluate_predicate: %s", s.QuestionTextProblem)
			d.Help = "write the question as a non-empty string literal at the call"
			p.Report(d)
			s.Reject(code)
		}
		if s.ID == "" {
			continue
		}
		if prev, dup := first[s.ID]; dup {
			line := lineOf(p.Src, prev.IDSpan.Start)
			d := p.Diag(diagnostics.SourceType, code, s.IDSpan, "site id %q is already used by the site on line %d; each site in a module needs its own id", s.ID, line)
			d.Related = []diagnostics.Related{{Span: analysis.Span(prev.IDSpan), Message: fmt.Sprintf("%q first used here", s.ID)}}
			d.Help = "give this site a new id, or call one typed helper function that owns the site from both places"
			p.Report(d)
			s.Reject(code)
			continue
		}
		first[s.ID] = s
	}
	for _, h := range p.Facts.HiddenCalls {
		d := p.Diag(diagnostics.SourceType, code, h.Span, "evaluation call hidden from the checker: %s", h.Reason)
		d.Help = "call the method directly on a HarnessLlm value, e.g. harness.llm.evaluate(...), and keep the receiver's static type (type the parameter or binding HarnessLlm)"
		p.Report(d)
	}
	for _, mv := range p.Facts.MethodValues {
		d := p.Diag(diagnostics.SourceType, code, mv.Span, "%s is taken as a value, which hides the evaluation site from the checker", mv.Method)
		d.Help = "call it directly (harness.llm." + mv.Method + "(...)); to reuse a site, wrap the call in a typed helper function"
		p.Report(d)
	}
}

func lineOf(src []byte, off int) int {
	return diagnostics.NewLineIndex(src[:min(off, len(src))]).LineCount()
}
