// Package discarded defines the discarded rule.
//
// # Rule discarded
//
// discarded: an evaluation outcome must be used (HARN-TYP-032).
//
// An outcome may be a refusal, a budget cut or a low-confidence answer;
// dropping it means nobody decided what to do about those. Reported: an
// expression statement whose value is an outcome, `const _ = ...` or
// `let _ = ...` of one, and a named binding of an outcome that is never
// read (resolved lexically, so a same-named binding elsewhere does not
// count; a read inside a closure does). Returning the outcome, passing it
// to a function or matching it counts as use.
package discarded
