// Package layering states the import rules between the repository's
// layers and holds the tests that keep them (it has no code of its own).
//
// The layers, lowest first:
//
//   - diagnostics/, grammar/ and internal/ helpers: no semantics;
//   - lang/ (the per-language tables: Harn's builtins and types, Leia's
//     predeclared names and semantic model) and catalog/ (harn.toml and
//     the route catalog): facts the checker, the runtimes and the language
//     server all read;
//   - checker/ and runtime/, side by side: neither imports the other;
//   - manifest/, driver/, lsp/, cmd/: wiring and front ends;
//   - language/: one Language value per language (language/harn,
//     language/leia), assembled from the front end, the runtime and the
//     editor features; the binaries (cmd/) list these values, and no
//     package fills a registry from init (TestNoRegistryFilledFromInit).
//
// A fact two layers must agree on lives in a package below both; a test
// over `go list -deps` fails when an import crosses upward or sideways.
package layering
