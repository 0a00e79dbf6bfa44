// Package initializers defines the initializers rule.
//
// # Rule initializers
//
// initializers: a binding's initialiser must fit its declared type
// (HARN-TYP-007).
//
// For `const|let|var name: T = value`, the value's type must be assignable
// to T; a mismatch reads as upstream Harn words it: "'n' declared as int,
// but assigned string". A value of type unknown must be narrowed before
// it is bound to a concrete type ("'s' declared as string, but assigned
// unknown"). A list or dict that is not a fresh literal keeps its element
// types: `let ys: list<float> = xs` with xs a list<int> is reported, since
// writing a float through ys would break xs (a fresh `[1, 2]` may widen).
// Stream<T> (what a gen fn returns) and Generator<T> (what a function that
// yields returns) are distinct. When T is a closed record (a shape, a struct or an alias of one,
// such as EvaluationPolicy) and the value is a record literal, a field T
// does not declare or a required field the literal lacks is reported by
// name — the usual way a misspelt policy field (`modle:`) would otherwise
// reach the evaluator, which refuses unknown fields at run time. Other
// gradual values (any, open records, anything containing them) and empty
// list or dict literals are never reported.
package initializers
