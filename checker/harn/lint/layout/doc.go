// Package layout defines the Harn lint rules about the shape of the source
// text: the order of imports, trailing commas, and blank lines between
// top-level items. Each has a safe fix.
//
// # Rule blank-line-between-items
//
// blank-line-between-items: top-level items without a blank line between (HARN-LNT-041).
//
// A warning, on by default.
//
// Reported: two consecutive top-level declarations (functions, pipelines,
// types, tools, skills, eval packs, impl blocks, overrides, bindings, or an
// import and a declaration) with no blank line between the end of the
// first and the start of the second. Comment lines directly above the
// second belong to it, so the blank line goes above them. A run of
// imports stays tight. The fix inserts an empty line after the first
// item.
//
// # Rule trailing-comma
//
// trailing-comma: a multi-line list without a trailing comma (HARN-LNT-042).
//
// A warning, on by default.
//
// Reported: a parenthesised or bracketed list — arguments, parameters, a
// list literal — and a brace that opens with `key:` — a dict literal, a
// struct literal, a shape type — whose closing bracket is on a later line
// than its opening one, that holds at least one comma of its own, and
// whose last item is not followed by one. Strings and comments are
// skipped. The fix inserts the comma after the last item (before any
// comment that follows it), which is also what the formatter writes.
//
// # Rule import-order
//
// import-order: imports out of canonical order (HARN-LNT-047).
//
// A warning, on by default.
//
// The leading imports of a file are sorted by: standard library
// (`std/...`) first; then by path; for one path, the whole-module import
// before a selective one; selective imports of one path by their sorted
// names. Reported: leading imports in another order, once for the run.
// The fix writes the imports in that order, one per line; it is offered
// only when no comment sits among them.
package layout
