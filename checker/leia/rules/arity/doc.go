// Package arity defines the arity rule.
//
// # Rule arity
//
// arity: a builtin called with fewer arguments than it needs fails
// (LEIA4008); a call with more arguments than the function takes drops
// them (LEIA4009, a warning).
//
// Leia never rejects a call for its argument count by itself: missing
// arguments are nil and extra ones are dropped. But a builtin refuses the
// call when a required argument is missing (`tostring()` raises "bad
// argument #1 to 'tostring'"), so too few arguments to a builtin whose
// arity the standard-library table records is an error. Too many
// arguments, to a builtin or to a function declared in the file (`func
// f(a, b)`, or a name bound once to a function literal), are silently
// dropped, which is rarely what the caller meant. Calls of variadic
// functions, calls whose last argument is a call or `...` (it may expand
// to any number of values), and method calls are not counted. Nor is the
// single call of a parameterless function literal passed as an argument
// (`pcall(func() { tostring() })`, `expect_error(func() { return
// math.sin() })`): the program makes that call to see it fail.
package arity
