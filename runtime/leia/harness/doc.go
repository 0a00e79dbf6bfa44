// Package harness is the evaluate harness of Leia programs, upstream's
// `leia evaluate`: it discovers `evaluate "name" { ... }` blocks, runs
// each as ordinary Leia code in a fresh interpreter (the file's top-level
// statements, other evaluate blocks left out, then the block), gives the
// blocks, and only them, the eval module (evalmod.go), and reports.
//
// Model turns go through runtime/leia/ai with the run's mode: the mock,
// live providers (optionally recorded to a .records.json fixture) or one
// strict replay shared by all cases in discovery order. Replay problems
// (a mismatched request, a request past the fixture, turns left over)
// are report findings with metadata only.
//
// The report (report.go) keeps upstream's JSON fields (schema_version 1,
// phase runtime-minimal) and adds metric summaries, subcases, usage,
// broken validator scripts and a baseline comparison; render.go writes
// it as JSON (deterministic: with a fixed clock the same run gives the
// same bytes), text and HTML.
//
// Invariants: nothing here prints (case output goes to Options.Stdout);
// the report never carries program output, prompt text or credentials;
// a panic in a case is recovered into that case's failure; every walk
// over the syntax tree is depth-bounded (ast.Inspect).
package harness
