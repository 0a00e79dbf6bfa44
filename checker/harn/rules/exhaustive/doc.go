// Package exhaustive defines the exhaustive rule.
//
// # Rule exhaustive
//
// exhaustive: a match over a literal union must cover every value, and
// every arm must be reachable (HARN-MAT-001, HARN-MAT-002).
//
// When the matched value's type is a union of literals — the kinds of an
// outcome (`match o.kind`), the declared labels of a choice or score
// answer at a literal evaluation site, or a user's `type T = "a" | "b"` —
// the match must have an arm for each value or end with `_`
// (HARN-MAT-001; the fix adds the missing arms as empty arms, indented
// like the existing ones, before the closing brace). An arm after an
// unguarded `_` or binding arm, an arm repeating a literal an earlier
// unguarded arm matched, or a literal arm outside the union can never run
// (HARN-MAT-002). Matches over types that are not literal unions are left
// alone.
package exhaustive
