// Package imports defines the imports rule.
//
// # Rule imports
//
// imports: `import "go:..."` must name a binding the embedder allow-lists
// (LEIA4006); with no declared bindings it is a warning (LEIA4012).
//
// A `go:` import is explicit host-binding syntax: it reflects no Go
// package by itself, and is valid only when the embedding program has
// allow-listed and registered that path (specification, "Modules And
// Loading"). The allow-list is the checker host's GoModules: a project
// declares its embedder's bindings in harn.toml ([leia] go_modules), and
// an import outside a declared list is LEIA4006. Where nothing declares
// them (a program written for an embedder the checker does not know, as
// upstream's embedding examples are), the import is LEIA4012, a warning
// saying how to declare it; harn-check's own runtime registers none.
// Other imports (standard-library modules, project modules) are not
// checked here.
package imports
