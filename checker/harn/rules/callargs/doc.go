// Package callargs defines the callargs rule.
//
// # Rule callargs
//
// callargs: calls of known functions take the right number and types of
// arguments (HARN-STD-003 argument count, HARN-TYP-006 argument type).
//
// Known functions are the module's own declarations, functions imported
// from checked modules, the std/predicate builders (boolean, choice,
// score, evaluation_windows), the HarnessLlm methods and every builtin of
// the standard library (package builtins). Too few arguments (fewer than the
// required parameters) or too many (more than the parameters of a
// function without a rest parameter) is HARN-STD-003. An argument whose
// type is certain and not assignable to its parameter's type is
// HARN-TYP-006; gradual arguments (any, unknown) are never reported. The
// standard library takes nil wherever a value may be missing, so an
// argument of a builtin that may be nil (`T | nil`) is judged as T; only
// a certain nil is reported.
// Calls with a spread argument are not counted. The arguments of
// evaluation calls are judged by the site rules, except the policy: a
// record policy with a field EvaluationPolicy does not have, missing a
// required field, or with a field of the wrong type is HARN-TYP-006, and
// so is a constant policy whose backend is neither "structured_llm" nor
// "native_decision" (the help offers the nearest of the two; such a site
// declares no manifest entry).
package callargs
