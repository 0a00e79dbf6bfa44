package modelroute

import (
	_ "embed"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

const code = "HARN-TYP-035"

//go:embed doc.go
var doc string

// Rule is the modelroute rule.
var Rule = &analysis.Rule{
	Name:  "modelroute",
	Doc:   analysis.ExtractDoc(doc, "modelroute"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, s := range p.Facts.Sites {
		if s.Method == stdlib.MethodEvaluateRequest || s.ReceiverProblem != "" || !s.Policy.Present || s.Policy.Parameter {
			continue
		}
		pol := s.Policy
		if !pol.Const {
			d := p.Diag(diagnostics.SourceType, code, pol.Span, "the policy of %s must be a compile-time constant so its route can be checked: %s", s.Method, pol.Reason)
			d.Help = "write the policy as a record literal (or a const bound to one) that is never modified; for a policy chosen at run time use evaluate_request"
			p.Report(d)
			s.Reject(code)
			continue
		}
		provider, okP := pol.String("provider")
		model, okM := pol.String("model")
		backend, _ := pol.String("backend")
		if !okP || !okM {
			continue // a missing field is a type error of the policy, not a route problem
		}
		if p.Catalog == nil {
			continue
		}
		span := routeSpan(s, pol.Span)
		// The one derivation the evaluator's admission uses too.
		_, ref := p.Catalog.Decision(provider, model, backend)
		if ref == nil || ref.Kind == catalog.RefuseUnknownBackend {
			continue // an unknown backend is a type error of the policy
		}
		d := p.Diag(diagnostics.SourceType, code, span, "%s", ref.Message)
		d.Help = ref.Help
		p.Report(d)
		s.Reject(code)
	}
}

// routeSpan narrows a policy written inline as a record literal to its
// model entry; a named policy keeps the argument's span.
func routeSpan(s *analysis.Site, span ast.Span) ast.Span {
	if s.Call == nil || len(s.Call.Args) < 4 {
		return span
	}
	d, ok := s.Call.Args[3].(*ast.DictLit)
	if !ok {
		return span
	}
	for _, en := range d.Entries {
		if en.Name != nil && en.Name.Name == "model" && en.Value != nil {
			return en.Span
		}
	}
	return span
}
