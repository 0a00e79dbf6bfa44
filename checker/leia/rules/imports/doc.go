// Package imports defines the imports rule.
//
// # Rule imports
//
// imports: `import "go:..."` must name a binding the embedder allow-lists
// (LEIA4006).
//
// A `go:` import is explicit host-binding syntax: it reflects no Go
// package by itself, and is valid only when the embedding program has
// allow-listed and registered that path (specification, "Modules And
// Loading"). The allow-list is the checker host's GoModules; harn-check's
// own runtime registers none, so every `go:` import is reported there.
// Other imports (standard-library modules, project modules) are not
// checked here.
package imports
