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
