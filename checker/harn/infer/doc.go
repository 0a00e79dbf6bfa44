// Package infer is the Harn checker's inference pass: scopes and name
// resolution, conversion of type annotations, gradual type inference for
// bindings, calls, returns and closures, flow-sensitive narrowing (match
// arms on a tag, `==`/`!=` tests, early exits, nil checks), recognition of
// evaluation sites with their literal question sets and constant
// policies. It records what it learns as analysis.Facts; it reports
// nothing itself — the rules under checker/harn/rules do.
//
// Invariants: no IO (imports arrive through Config.Resolve); never panics
// on a partial tree; deterministic.
package infer
