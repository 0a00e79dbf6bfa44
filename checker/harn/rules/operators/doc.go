// Package operators defines the operators rule.
//
// # Rule operators
//
// operators: binary operators must be defined for their operand types
// (HARN-TYP-002).
//
// Arithmetic is defined on int and float (mixing gives float); `+` also
// joins two strings, two lists or two dicts; `*` repeats a string an int
// number of times; `<`, `>`, `<=`, `>=` order two numbers or two strings.
// Anything else is reported when both operand types are certain (gradual
// or union types are left alone), in upstream Harn's words: "can't add
// bool and bool", "can't use '-' on string and string (needs numeric
// operands)", "can't multiply bool and int (try string * int)"; an
// ordering of other types is "operator < is not defined for ...".
//
// Comparing with `==` or `!=` a value whose type is a union of string
// literals against a string literal outside that union, in either operand
// order, can never be true (or, with `!=`, never false). This is how a
// misspelled or renamed label is caught: at a literal evaluation site, a
// choice answer's `choice` and a score answer's `level` are typed as the
// union of the declared labels. The diagnostic points at the declared
// labels and offers the nearest one as a fix.
package operators
