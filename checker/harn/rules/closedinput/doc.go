// Package closedinput defines the closedinput rule.
//
// # Rule closedinput
//
// closedinput: evaluation inputs and policies must have closed
// serializable types (HARN-TYP-030).
//
// The state (evaluate, evaluate_request), input (evaluate_predicate),
// policy and, for evaluate_request, the question map are sent to a model
// and bound into the receipt's identity, so their static types must be
// closed and serializable: string, bool, int, float, nil, string and int
// literal types, closed shapes of those, list<T>, tuples, non-empty unions
// and dict<string, V>, recursively. any, unknown, a bare dict or list, a
// function, a capability handle (passing `harness` itself), an open
// record, a recursive type, or an input whose type cannot be inferred is
// rejected; validate external data into a declared shape first. A
// rejected site declares no manifest entry.
package closedinput
