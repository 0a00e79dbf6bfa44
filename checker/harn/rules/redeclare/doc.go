// Package redeclare defines the redeclare rule.
//
// # Rule redeclare
//
// redeclare: an immutable binding is not declared twice in one scope
// (HARN-NAM-004).
//
// Declaring a name with let or const where the same scope already holds
// an immutable binding of that name fails when the program runs ("Cannot
// redeclare immutable variable 'x' in the same scope"). Shadowing in an
// inner scope (a block, a loop body, a function) is fine, and var
// bindings may be declared again.
package redeclare
