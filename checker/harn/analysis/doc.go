// Package analysis is the contract between the Harn checker's inference
// pass and its rules. The framework itself (Rule, the shared Pass, Run,
// requirements) is checker/analysis, shared with the Leia checker; this
// package instantiates it for Harn: a Pass adds one module's syntax tree,
// the facts the inference pass recorded (types after narrowing,
// evaluation sites, conditions, field reads, matches, bindings, calls)
// and the route catalog in force.
//
// Invariants: rules never print, never do IO and never choose a severity
// (the diagnostics registry does). The package holds data and plumbing
// only; no rule logic lives here.
package analysis
