// Package evaluate defines the evaluate rule.
//
// # Rule evaluate
//
// evaluate: an evaluate block's name is a literal, non-empty string
// (LEIA3006).
//
// `evaluate "name" { ... }` declares a regression case; reports and
// baselines identify it by that name, so it must be known without running
// anything: a string literal without `${...}` interpolation. An empty
// name identifies nothing. The name is required: `evaluate { ... }`
// without one is not a case at all (it reads as a tagged block whose body
// ordinary execution would run), so it is reported too.
package evaluate
