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
// name identifies nothing.
package evaluate
