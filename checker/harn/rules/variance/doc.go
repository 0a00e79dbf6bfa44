// Package variance defines the variance rule.
//
// # Rule variance
//
// variance: a type parameter marked `in` or `out` is used only where its
// mark allows (HARN-TYP-013).
//
// `out T` declares T covariant: the declaration only produces Ts, so T
// may appear in results and produced fields, never as a parameter. `in T`
// declares T contravariant: the declaration only consumes Ts, so T may
// appear only as a parameter. Positions compose: a parameter of a
// function-typed parameter is covariant again. Lists, dicts and struct
// fields are mutable, so a T inside them is invariant and allowed only for
// an unmarked T. The rule checks functions (parameters consume, the result
// produces), type aliases (the body produces), enums (variant payloads
// produce), structs (fields are invariant) and interfaces (method
// parameters consume, results produce, associated types are invariant),
// and reports the first misplaced use in upstream Harn's words: "type
// parameter 'T' is declared 'out' (covariant) but appears in a
// contravariant position in type alias 'Box'". Unmarked parameters may
// appear anywhere.
package variance
