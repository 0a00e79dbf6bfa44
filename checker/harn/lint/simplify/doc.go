// Package simplify defines the lint rules that flag an expression with a
// simpler equivalent: a comparison with a boolean literal, a comparison of
// a value with itself, a nil ternary, a cast or a copy that changes
// nothing.
//
// # Rule comparison-to-bool
//
// comparison-to-bool: a comparison with true or false (HARN-LNT-032).
//
// `x == true` is `x`, `x == false` and `x != true` are `!x`, and `x !=
// false` is `x`, when x is a bool. The rule reports == and != with a
// boolean literal on either side and offers the shorter form as its fix.
// The fix is safe when the other operand is known to be a bool; when it
// may be something else (a nil, a string) truthiness and equality differ,
// so the fix is marked unsafe. On by default, as upstream.
package simplify
