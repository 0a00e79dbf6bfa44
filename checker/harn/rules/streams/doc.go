// Package streams defines the streams rule.
//
// # Rule streams
//
// streams: `emit` belongs in a `gen fn`, `yield` outside one
// (HARN-TYP-012).
//
// A `gen fn` produces a Stream: its body hands values out with `emit`. A
// plain function that uses `yield` produces a Generator, a different
// kind of value. `yield` inside a `gen fn` ("`yield` is not a stream
// emit; use `emit` inside `gen fn`") and `emit` outside one ("`emit` can
// only be used inside a `gen fn`") are reported in upstream Harn's words.
// Closures and functions nested in a `gen fn` count as inside it.
package streams
