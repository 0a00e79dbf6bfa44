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
//
// # Rule pointless-comparison
//
// pointless-comparison: a value compared with itself, or an if on a literal (HARN-LNT-031).
//
// `x == x` is always true and `x != x` always false when x has no effect
// (both sides the same text, built from names, literals, members and
// operators). The fix writes the literal; it is unsafe when the operands
// may be floats (NaN differs from itself) or of unknown type. An if whose
// condition is the literal true or false is reported without a fix. On
// by default, as upstream.
//
// # Rule invalid-binary-op-literal
//
// invalid-binary-op-literal: arithmetic on a boolean or nil literal (HARN-LNT-033).
//
// `+`, `-`, `*`, `/` and `%` with the literal true, false or nil as an
// operand fail at run time. For `"text" + nil` (a plain string on one
// side, + the operator) the fix interpolates the other operand into the
// string. On by default, as upstream, as a warning.
//
// # Rule redundant-nil-ternary
//
// redundant-nil-ternary: `x == nil ? fallback : x` (HARN-LNT-034).
//
// A ternary that checks a name against nil and yields the name itself
// when it is not nil is `x ?? fallback`. Only a bare name is considered,
// so both forms evaluate it once; the fix writes the `??` form,
// parenthesising the fallback when it binds more loosely. On by default,
// as upstream.
//
// # Rule duplicate-match-arm
//
// duplicate-match-arm: a match arm with the pattern of an earlier arm (HARN-LNT-037).
//
// Arms are tried in order, so an arm whose pattern (and guard) repeats an
// earlier arm's never matches. Patterns are compared as written, ignoring
// white space. No fix: which arm's body is right is for the author. On by
// default, as upstream.
package simplify
