// Package discarded defines the discarded rule.
//
// # Rule discarded
//
// discarded: an evaluation outcome must be used (HARN-TYP-032).
//
// An outcome may be a refusal, a budget cut or a low-confidence answer;
// dropping it means nobody decided what to do about those. Reported: an
// expression statement whose value is an outcome, `const _ = ...` or
// `let _ = ...` of one, and a named binding of an outcome that is never
// read (resolved lexically, so a same-named binding elsewhere does not
// count; a read inside a closure does). Returning the outcome, passing it
// to a function or matching it counts as use.
package discarded

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-032"

// Rule is the discarded rule.
var Rule = &analysis.Rule{
	Name:  "discarded",
	Doc:   "discarded: an evaluation outcome must be used (HARN-TYP-032)",
	Codes: []string{code},
	Run:   run,
}

const help = "match its kind (match o.kind { ... }), return it, or pass it to a function that handles it"

func run(p *analysis.Pass) {
	for _, d := range p.Facts.Discards {
		if !stdlib.IsOutcome(d.Type) {
			continue
		}
		msg := "the evaluation outcome of this expression is discarded"
		if d.Kind == "discard binding" {
			msg = "the evaluation outcome is bound to _ and discarded"
		}
		diag := p.Diag(diagnostics.SourceType, code, d.Span, "%s; refusals and low-confidence answers would go unhandled", msg)
		diag.Help = help
		p.Report(diag)
	}
	for _, b := range p.Facts.Bindings {
		if b.Param || b.Uses > 0 || !stdlib.IsOutcome(b.Type) {
			continue
		}
		diag := p.Diag(diagnostics.SourceType, code, b.Span, "the evaluation outcome bound to %s is never used; refusals and low-confidence answers would go unhandled", b.Name)
		diag.Help = help
		p.Report(diag)
	}
}
