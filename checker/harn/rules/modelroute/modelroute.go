// Package modelroute defines the modelroute rule.
//
// # Rule modelroute
//
// modelroute: a literal site's policy must name a catalog route that
// supports decisions (HARN-TYP-035).
//
// For evaluate and evaluate_predicate the checker reads {backend,
// provider, model} from the policy at compile time and looks the route up
// in the model catalog (built-in routes plus the [[routes]] of the
// nearest harn.toml, see package catalog). The route must support the
// decision operation: declared, or for backend structured_llm derived from
// text_generation plus a structured transport that is not "unsupported";
// a native protocol (typesafe_system_one, vercel_evaluate,
// openrouter_decisions) needs decision alone and cannot serve
// structured_llm without text_generation. An unknown route, or a policy
// computed at run time (a call result, a reassigned binding, a binding
// with a field written later, even inside a closure), is reported.
//
// A policy that is a parameter of the enclosing function is not reported
// here: the caller supplies it, and the typed helper pattern of the
// reference programs passes policies this way. evaluate_request is
// skipped: its route is admitted at run time.
package modelroute

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
)

const code = "HARN-TYP-035"

// Rule is the modelroute rule.
var Rule = &analysis.Rule{
	Name:  "modelroute",
	Doc:   "modelroute: a literal site's policy must name a catalog route that supports decisions (HARN-TYP-035)",
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
		r, ok := p.Catalog.Lookup(provider, model)
		if !ok {
			d := p.Diag(diagnostics.SourceType, code, pol.Span, "route %s/%s is not in the model catalog, so it cannot serve the decision operation", provider, model)
			d.Help = "use a catalog route, or declare this one in harn.toml: [[routes]] provider = \"" + provider + "\" model = \"" + model + "\" operations = [\"decision\"]"
			p.Report(d)
			s.Reject(code)
			continue
		}
		if missing, ok := r.Supports(backend); !ok {
			d := p.Diag(diagnostics.SourceType, code, pol.Span, "route %s/%s lacks the %s operation that backend %q needs", provider, model, missing, backend)
			d.Help = "choose a route whose catalog entry supports " + missing + ", or change the backend"
			p.Report(d)
			s.Reject(code)
		}
	}
}
