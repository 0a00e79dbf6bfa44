// Package analysis is the contract between the Harn checker's inference
// pass and its rules, in the manner of golang.org/x/tools/go/analysis: a
// Rule is a small named unit with documentation and the codes it may
// report; a Pass hands it one module's syntax tree, the facts the
// inference pass recorded (types after narrowing, evaluation sites,
// conditions, field reads, matches, bindings, calls) and a Report method.
//
// Invariants: rules never print, never do IO and never choose a severity
// (the diagnostics registry does). The package holds data and plumbing
// only; no rule logic lives here.
package analysis
