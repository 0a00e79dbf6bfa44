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
//
// # Rule unnecessary-cast
//
// unnecessary-cast: a conversion of a value that already has the kind (HARN-LNT-028).
//
// to_string, to_int, to_float, to_list and to_dict called with one
// argument that is already of the kind they yield: a literal of that kind
// (any string literal, interpolated or raw, for to_string), or a call of
// the same conversion (`to_string(to_string(x))`). A name or other
// expression is left alone even when its type is known: a value read from
// outside data may hold another kind at run time, and the conversion then
// does real work. The fix replaces the call with its argument. On by
// default, as upstream.
//
// # Rule redundant-clone
//
// redundant-clone: a copy made only to be passed on (HARN-LNT-005).
//
// `x.clone()` written directly as an argument of a call is a copy nobody
// else sees; passed to `drop` it is thrown away at once. The fix passes
// `x` itself. It is unsafe: clone is the value's own method (no built-in
// kind has one), and a callee that keeps or changes its argument would
// then share the original. A clone bound to a name is not reported. On by
// default, as upstream.
//
// # Rule eager-collection-conversion
//
// eager-collection-conversion: an iterator where a list, dict or set is declared (HARN-LNT-004).
//
// A binding declared `list<T>`, `[T]`, `dict<K, V>` or `set<T>`, or a
// return from a function declaring one of them as its result, whose value
// is an iterator: `iter(x)`, `x.iter()`, or map, filter, flat_map, take,
// skip, take_while, skip_while, zip, enumerate, chain, chunks or windows
// called on an iterator or a range. The fix appends `.to_list()`,
// `.to_dict()` or `.to_set()`. Unlike upstream's, the rule does not take
// a list's own map or filter for an iterator (they build lists, and the
// appended call would not exist on one). On by default, as upstream.
package simplify
