// Package unnarrowed defines the unnarrowed rule.
//
// # Rule unnarrowed
//
// unnarrowed: an outcome's variant fields need narrowing first
// (HARN-TYP-034).
//
// Every outcome carries kind and receipt; everything else (value,
// candidates, reason, threshold, ...) belongs to some variants only.
// Reading such a field by property, optional property, literal index or
// dict destructuring before the outcome is narrowed to variants that all
// have it is an error; a dynamic index read of an outcome always is.
// Narrow with `match o.kind { "answered" -> { ... } }`, with
// `if o.kind == "verdict" { ... }`, or by returning early from the other
// kinds.
package unnarrowed
