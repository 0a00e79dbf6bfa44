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
// nearest harn.toml, see package catalog) and derives its decision
// support with catalog.Route.Decision, the derivation the evaluator's
// admission uses, so a route checked clean is the route run dispatches:
// a native protocol (typesafe_system_one, vercel_evaluate,
// openrouter_decisions) takes precedence and serves native_decision
// alone (never structured_llm, whatever else it declares); structured_llm
// dials the chat endpoint, so it needs text_generation and a structured
// transport that is absent (prompt validation) or known and not
// "unsupported"; native_decision needs a native protocol. A harn.toml
// that is not valid is HARN-CFG-001 and no route is checked. An unknown
// route, or a policy computed at run time (a call result, a reassigned
// binding, a binding with a field written later, even inside a closure),
// is reported.
//
// A policy that is a parameter of the enclosing function (the typed helper
// pattern) is checked at the helper's callers: the checker follows the
// argument of every call within the import closure, through helpers that
// pass it on, and reports a constant naming a bad route, or a policy
// computed at run time, at the caller's argument, with the helper's site
// as related information. evaluate_request is skipped: its route is
// admitted at run time.
package modelroute
