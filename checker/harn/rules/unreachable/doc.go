// Package unreachable defines the unreachable rule.
//
// # Rule unreachable
//
// unreachable: `unreachable(x)` is reached only when every case of x has
// been handled (HARN-MAT-003).
//
// `unreachable(x)` marks the end of a chain of tests that should leave no
// possible value: after `if type_of(x) == "string" { return ... }` and
// `if type_of(x) == "int" { return ... }`, an x of type `string | int`
// has type never. When the variable passed still has a type with values,
// a case was missed, and the rule says which type is left ("unreachable()
// argument has type `int` — not all cases are handled", upstream Harn's
// words). Variables of uncertain type (any, unknown) are not judged.
package unreachable
