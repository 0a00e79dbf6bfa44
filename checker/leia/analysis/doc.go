// Package analysis is the machinery of the Leia checker's rules: the Leia
// Pass (an instance of the framework in checker/analysis, shared with the
// Harn checker) and the helpers that turn syntax spans into diagnostics. A
// pass carries the file's semantic model (lang/leia/semantic: scopes,
// bindings and AI-dialect facts), computed once per file and shared by
// every rule.
//
// Invariants: no IO, no printing, deterministic.
package analysis
