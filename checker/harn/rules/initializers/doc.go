// Package initializers defines the initializers rule.
//
// # Rule initializers
//
// initializers: a binding's initialiser must fit its declared type
// (HARN-TYP-007).
//
// For `const|let|var name: T = value`, the value's type must be assignable
// to T. When T is a closed record (a shape, a struct or an alias of one,
// such as EvaluationPolicy) and the value is a record literal, a field T
// does not declare or a required field the literal lacks is reported by
// name — the usual way a misspelt policy field (`modle:`) would otherwise
// reach the evaluator, which refuses unknown fields at run time. Gradual
// values (any, unknown, open records, anything containing them) and empty
// list or dict literals are never reported.
package initializers
