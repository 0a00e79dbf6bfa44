// Package names defines the names rule.
//
// # Rule names
//
// names: every name must resolve (HARN-NAM-001 undefined variable,
// HARN-NAM-002 undefined function).
//
// A name is looked up lexically: block (types, structs, enums and
// interfaces declared anywhere in it; tools, skills and eval packs from
// their declaration on), enclosing functions, the module (declarations
// in any order, imports), then what the runtime provides: the builtins
// of the standard library (package builtins), its namespaces (`stream`,
// `event_log`, `workflow`), its global values (`argv`, `pi`, `skills`,
// ...), `harness` (a Harness) and `context`, and any name the host
// provides by rule (starting `hostlib_` or `__`). A type name read as a
// value is a schema (`schema_of(Verdict)`). `_` is a name only as a
// pipe's placeholder; read elsewhere it is undefined.
//
// A called name that resolves nowhere is HARN-NAM-002, worded as
// upstream Harn's checker words it ("call target `x` is not defined or
// imported"); any other is HARN-NAM-001. When a visible or builtin name
// is within two edits (one for a name of up to five characters; a swap of
// two neighbouring letters counts as one edit, so `lable` finds `label`
// and `grete` finds `greet`; package suggest measures), the message ends
// "did you mean `name`?" and a fix replaces the name. When an import of the module failed to resolve, the
// names it would have brought are unknown, so nothing is reported
// (checking degrades rather than guessing).
package names
