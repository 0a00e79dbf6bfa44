// Package questionset defines the questionset rule.
//
// # Rule questionset
//
// questionset: the question set of harness.llm.evaluate must be readable
// at the call (HARN-TYP-036).
//
// The checker reads the question set to type every answer and to record
// the site's questions in the manifest. Readable means: the third argument
// is a dict literal (not a variable, parameter or computed value) with at
// least one entry; each key is an identifier or a non-empty string
// literal, unique in the set; each value is a direct call of boolean,
// choice or score (by the `kind` of the shape it builds) whose
// instructions are a non-empty string literal; a choice's options are a
// dict literal with literal keys and a score's levels a list literal of
// non-empty strings; a choice or score has at least one label and no label
// twice. A set that cannot be read declares no site. For a question set
// computed at run time, use harness.llm.evaluate_request.
package questionset
