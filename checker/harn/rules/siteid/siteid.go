// Package siteid defines the siteid rule.
//
// # Rule siteid
//
// siteid: evaluation sites must be recognisable and uniquely named
// (HARN-TYP-033).
//
// A call of harness.llm.evaluate, evaluate_predicate or evaluate_request
// declares an evaluation site. The site manifest and every receipt name it
// by its id, so the id must be a non-empty string literal and unique among
// the sites of one module (one site may still run many times: wrap it in a
// typed helper function to reuse it). evaluate_predicate's question must be
// a non-empty string literal too. The checker must see the call for what
// it is: taking an evaluation method as a value, calling it with `?.`, or
// calling it on a receiver whose static type was erased (any, unknown, a
// bare dict) hides the site and is rejected. A plain `evaluate` field read
// off untyped data is not a site; an erased receiver is only reported when
// the receiver names the LLM capability (`harness.llm`, `x.llm`, `llm`).
package siteid

import (
	"fmt"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-033"

// Rule is the siteid rule.
var Rule = &analysis.Rule{
	Name:  "siteid",
	Doc:   "siteid: evaluation sites must be recognisable and uniquely named (HARN-TYP-033)",
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
	for _, mv := range p.Facts.MethodValues {
		d := p.Diag(diagnostics.SourceType, code, mv.Span, "%s is taken as a value, which hides the evaluation site from the checker", mv.Method)
		d.Help = "call it directly (harness.llm." + mv.Method + "(...)); to reuse a site, wrap the call in a typed helper function"
		p.Report(d)
	}
}

func lineOf(src []byte, off int) int {
	line := 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
		}
	}
	return line
}
