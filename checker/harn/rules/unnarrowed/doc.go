// Package unnarrowed defines the unnarrowed rule.
//
// # Rule unnarrowed
//
// unnarrowed: an outcome's variant fields need narrowing first
// (HARN-TYP-034).
//
// Every outcome carries kind and receipt; everything else (value,
// candidates, reason, threshold, ...) belongs to some variants only.
// Reading such a field by property, optional property, literal index or
// dict destructuring before the outcome is narrowed to variants that all
// have it is an error; a dynamic index read of an outcome always is.
// Narrow with `match o.kind { "answered" -> { ... } }`, with
// `if o.kind == "verdict" { ... }`, or by returning early from the other
// kinds.
//
// The same holds for the answers of evaluate_request: runtime vocabulary
// types them as the generic EvaluationAnswer union, so reading an
// answer's choice, level, score, verdict or probabilities before matching
// the answer's own kind (`match a.kind { "choice" -> { ... } }`) is
// HARN-TYP-034. Answers of a literal site are typed per question and need
// no narrowing; answers of an outcome declared as the generic
// EvaluationOutcome (a parameter, a helper's result) are not checked.
package unnarrowed
