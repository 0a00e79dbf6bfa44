// Package positional defines the positional rule.
//
// # Rule positional
//
// positional: lists are written with brackets; braces are for keyed
// records (LEIA2001, a warning, the code of Leia's own linter).
//
// Reported: a table constructor `{...}` with an entry that has no key, as
// in `{"a", "b"}` or `{name: "x", "y"}`. Exempt: the vararg pack `{...}`
// written exactly so, the bodies of tagged blocks and legacy agent
// configurations (their dialects define their entries; a legacy
// `messages {}` block takes un-keyed messages), and the body of a dense
// array (`[]i64{1, 2}`). When every entry is positional the fix replaces
// the braces with brackets.
package positional
