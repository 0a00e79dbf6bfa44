// Package harn is the Harn checker: it parses a module and its imports,
// runs the inference pass (package infer) and every rule (packages under
// rules/), and returns the diagnostics together with the facts about each
// evaluation site.
//
// # API
//
//	res := harn.Check(path, src, harn.Options{Loader: harn.OSLoader{}})
//	res.Diagnostics // of the checked file (imports add HARN-MOD-001/007 here)
//	res.Sites       // evaluation sites of the file and its import closure
//	res.Failed      // the file or an import has errors: no complete census
//
// # Loader
//
// The checker does no IO of its own. Imports (`import "./helpers"`, the
// `.harn` extension appended when absent) and the project file harn.toml
// are read through a Loader: OSLoader reads the file system; a language
// server passes one that serves open buffers first. `std/predicate` is
// built in; other `std/` and package imports are not resolved, which
// degrades checking (names they might bring are not reported) without an
// error. A relative import that cannot be read is HARN-MOD-001; an import
// that has errors of its own is HARN-MOD-007 on the import.
// A selectively imported name the module does not export is HARN-IMP-002
// on the name: the message says whether the module declares it at all
// (suggesting the nearest export) or declares it without exporting it
// (with a related span on the declaration).
//
// # Site facts
//
// Site (an alias of analysis.Site) describes one evaluation call: Source
// (module path), Method, Span/Line/Column of the call, ID and IDSpan,
// Questions (id, kind, instructions, labels with spans, in declared
// order; evaluate_predicate contributes one boolean question named by the
// site), RuntimeAdmission for evaluate_request, Input (inferred type) and
// InputDeclared (annotation), Policy (compile-time value of the policy
// when constant: Const, Fields, or Parameter/Reason), Outcome and
// OutcomeKind. Declared() reports whether the site passed every rule and
// so belongs in the manifest.
//
// Result.Reads lists the harn.toml candidates the check read or looked
// for, and Result.Imports the modules of the import closure, so a result
// cache can tell when a result is stale.
//
// # Module graph
//
// Options.Graph shares one module graph among the checks of a run (see
// Graph): each module is read, parsed and checked once, import cycles are
// checked as components in path order, and chains cost linear time. The
// graph reports every module it loads to a recorder (the driver's session),
// from which a cache fingerprints import closures.
//
// # Catalog
//
// Options.Catalog, when nil, is the built-in route catalog extended by the
// file Options.CatalogFile names or else by the nearest harn.toml found
// walking up from the checked file; package catalog finds, reads (through
// the Loader) and validates it. An invalid one is HARN-CFG-001, and no
// route is checked against it.
//
// # Invariants
//
// The checker does no IO except through the Loader, never panics on a
// partial syntax tree, and is deterministic: the same sources and loader
// give the same diagnostics in the same order. It prints nothing.
package harn
