// Package leia is the Leia checker: it parses a file (or takes the tree an
// editor already has), resolves its names, lowers both dialect styles of
// the AI forms to the same facts (package analysis), runs every rule
// (packages under rules/) and returns the diagnostics.
//
// # API
//
//	res := leia.Check(path, src, leia.Options{Host: host})
//	res.Diagnostics // syntax errors (LEIA1001) and every rule's findings, sorted
//	res.File        // the syntax tree
//	res.Facts       // names, tools, agents, owners, models, calls
//
// # Rules and codes
//
// Each rule is a package under rules/ with its documentation in doc.go and
// `// want` fixtures under testdata/. The codes: LEIA1001 syntax;
// LEIA2001 positional table literal (Leia's linter); LEIA3001 the
// AI-validation findings of Leia's own validator, applied to both dialect
// styles; LEIA3002-LEIA3009 further AI-dialect contracts; LEIA4001-LEIA4009
// the language's compile-time rules and core checks. `harn-check explain
// CODE` prints each page.
//
// # Host
//
// Options.Host serves what rules need beyond the file: reading an output
// validator an agent names and compiling it (internal/frontends plugs in
// runtime/validator), and the `go:` import paths the embedder allow-lists.
// Without one those rules stay silent.
//
// # Invariants
//
// The checker does no IO except through the Host, never panics on a
// partial syntax tree, and is deterministic: the same source and host give
// the same diagnostics in the same order. It prints nothing.
package leia
