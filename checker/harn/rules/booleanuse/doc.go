// Package booleanuse defines the booleanuse rule.
//
// # Rule booleanuse
//
// booleanuse: an evaluation outcome is not a boolean (HARN-TYP-031).
//
// EvaluationOutcome and PredicateOutcome are tagged unions; every arm,
// refusals included, is a non-empty record and therefore truthy. Using
// one as the condition of if, while, guard, require or a ternary, or as an
// operand of !, && or ||, treats a refusal as a yes. Outcome-ness is
// nominal: after removing nil, every member must be one of std/predicate's
// outcome variants (a user record {kind: "verdict", receipt: "x"} is not
// one). Match the kind and read the verdict in the "verdict" arm instead.
package booleanuse
