// Package generics defines the generics rule.
//
// # Rule generics
//
// generics: one call binds each type parameter to one type
// (HARN-TYP-010).
//
// In `fn keep<T>(a: T, b: T) -> T`, every argument passed for a
// parameter written as bare `T` must have one type: `keep(1, "x")` would
// make T both int and string ("type parameter 'T' was inferred as both
// int and string", in upstream Harn's words). Two types where one fits
// the other (int and float, string and string | nil) are taken as one.
// Arguments of uncertain type bind nothing.
package generics
