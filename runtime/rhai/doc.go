// Package rhai is a hardened interpreter for the subset of the Rhai
// scripting language that output validators use (Rhai 1.25 semantics as
// Leviath configures it): a lexer, a hand-written parser whose errors carry
// byte offsets plus Rhai's "(line L, position P)", and a tree-walking
// evaluator with Leviath's built-in overrides and Rhai's parse_json.
//
// Hardening (see Limits): an operation budget per call (100,000 by
// default), limits on string bytes, array elements and map entries (both
// counted recursively), script call depth and parse-time expression depth.
// Go recursion is bounded by explicit counters (parser depth, evaluator
// depth, value nesting), so no input can overflow the Go stack, and every
// loop spends operations, so no script can hang. There is no filesystem,
// network, eval (a compile error), import (a run-time "Module not found"),
// sleep, timestamp, Fn/call/curry or function metadata.
//
// Deliberate differences from Rhai, each a hardening choice:
//   - work proportional to data size (scanning or copying big strings,
//     comparing, searching, copying or size-checking big containers) is
//     charged to the budget: one operation per 4 KiB of string scanned,
//     per 1 KiB of string copied, per 32 container entries visited, per
//     32 values parse_json reads (on top of its own budget), and n·log n/32
//     for a sort, so it cannot outlast the budget; this only
//     changes verdicts of scripts that are near the budget anyway;
//   - parse_json is a strict JSON reader (see json.go) rather than Rhai's
//     expression evaluator, so it never runs code found in an answer.
//
// Invariants: Compile and Call never panic on any input and always return;
// the package does no IO and keeps no global state.
package rhai
