// Package dropped defines the dropped rule.
//
// # Rule dropped
//
// dropped: the error of a model call is looked at (LEIA3009, a warning).
//
// `llm.turn`, `turn { ... }`, calling an agent, `llm.dispatch` and the
// other AI helpers that return a `(result, err)` pair report provider,
// budget, validation and cancellation failures through err, not by
// raising. Reported: such a call used as a statement (both values
// dropped), bound to a single name (`r := llm.turn(...)`: the error is
// silently dropped and r is nil on failure), or whose error is bound to a
// name that is never read. Binding the error to `_` is an explicit choice
// and is not reported.
package dropped
