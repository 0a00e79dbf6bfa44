package modelroute

import (
	_ "embed"

	"github.com/harnlang/harn-check/catalog"
	"strconv"

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
		if d, ok := routeProblem(p, pol, routeSpan(s, pol.Span)); ok {
			p.Report(d)
			s.Reject(code)
		}
	}
	for _, pp := range p.Facts.PolicyPasses {
		passed(p, pp)
	}
}

// routeProblem judges a constant policy's route: not in the catalog, or
// lacking the operation its backend needs.
func routeProblem(p *analysis.Pass, pol analysis.Policy, span ast.Span) (diagnostics.Diagnostic, bool) {
	provider, okP := pol.String("provider")
	model, okM := pol.String("model")
	backend, _ := pol.String("backend")
	if !okP || !okM || p.Catalog == nil {
		return diagnostics.Diagnostic{}, false // a missing field is a type error of the policy
	}
	// The one derivation the evaluator's admission uses too.
	_, ref := p.Catalog.Decision(provider, model, backend)
	if ref == nil || ref.Kind == catalog.RefuseUnknownBackend {
		return diagnostics.Diagnostic{}, false // an unknown backend is a type error of the policy
	}
	d := p.Diag(diagnostics.SourceType, code, span, "%s", ref.Message)
	d.Help = ref.Help
	return d, true
}

// passed judges a policy passed to a helper that uses it as the policy of
// evaluation sites: reported at the caller's argument, with the helper's
// sites as related information.
func passed(p *analysis.Pass, pp analysis.PolicyPass) {
	if len(pp.Sites) == 0 {
		return
	}
	site := pp.Sites[0]
	var d diagnostics.Diagnostic
	if !pp.Policy.Const {
		d = p.Diag(diagnostics.SourceType, code, pp.Policy.Span, "the policy passed to %s becomes the policy of its %s site %q, so it must be a compile-time constant: %s", pp.Callee, site.Method, site.ID, pp.Policy.Reason)
		d.Help = "pass a record literal (or a const bound to one); for a policy chosen at run time the helper should use evaluate_request"
	} else {
		var ok bool
		d, ok = routeProblem(p, pp.Policy, routeSpanOf(pp.Arg, pp.Policy.Span))
		if !ok {
			return
		}
		d.Message += " (passed to " + pp.Callee + " as the policy of its " + site.Method + " site)"
	}
	for _, s := range pp.Sites {
		rel := diagnostics.Related{Span: analysis.Span(s.Span), Message: "the helper's evaluation site " + strconv.Quote(s.ID) + " uses this policy"}
		if s.Source != p.Path {
			rel.Path = s.Source
		}
		d.Related = append(d.Related, rel)
	}
	p.Report(d)
}

// routeSpan narrows a policy written inline as a record literal to its
// model entry; a named policy keeps the argument's span.
func routeSpan(s *analysis.Site, span ast.Span) ast.Span {
	if s.Call == nil || len(s.Call.Args) < 4 {
		return span
	}
	return routeSpanOf(s.Call.Args[3], span)
}

// routeSpanOf narrows a record literal argument to its model entry.
func routeSpanOf(arg ast.Expr, span ast.Span) ast.Span {
	d, ok := arg.(*ast.DictLit)
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
