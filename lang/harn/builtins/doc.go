// Package builtins is the table of Harn's builtin functions, the
// methods and properties of its built-in value kinds (string, list,
// dict, set, range, iter, generator, channel, Result, Pair, closure) and
// runtime-provided global values: one entry per name with its
// parameters, result type, category, the host capabilities it needs and
// a one-line doc. Three consumers read it:
//
//   - the checker (package infer) types calls of builtins, builtins used
//     as values (`rekey(snake_to_camel)`), namespace members
//     (`stream.map(...)`, `event_log.emit(...)`) and method calls on
//     built-in kinds (`xs.take(2)`), and resolves names;
//   - the language server iterates it for completion and reads parameter
//     names, types and docs for signature help and hover, members too;
//   - the runtime looks builtins up by name to attach implementations and
//     asks which host capability (Needs) a call requires; it dispatches
//     method calls through the method entries (aliases, inheritance).
//
// # API
//
//	b := builtins.Lookup("read_file")     // nil when no such builtin
//	b.Signature()                         // *types.Func for the checker
//	b.Params[0].Name, b.Params[0].TypeText, b.Doc, b.Needs
//	builtins.All()                        // every builtin, sorted by name
//	builtins.Members("stream")            // stream.map, stream.collect, ...
//	builtins.LookupGlobal("argv")         // runtime-provided values
//	builtins.Resolves("hostlib_fs_read")  // name rules: host-provided prefixes
//	builtins.LookupMethod("list", "select") // the list.filter entry (an alias)
//	builtins.LookupMethod("range", "map")   // iter.map: a range is lifted
//	m.Instantiate(bind)                     // signature with T, V, U bound
//	builtins.Properties("list")             // count, empty, first, last
//
// # The spec file
//
// The table is written in builtins.spec (embedded). At first use its
// lines are indexed by name without parsing a signature; an entry is
// parsed when it is first looked up, and the whole table when a caller
// lists it (All, Globals, SpecErrors). It is our own compact description
// of the facts of Harn's standard library; a test keeps it well formed.
// The format, line by line:
//
//	# comment
//	## strings: String functions       a category: id, then its title
//	name(p: T, q?: U, ...rest: V) -> R  [needs fs, net]
//	    One-line doc.                   (indented: the doc of the entry above)
//	value name: T                       a runtime-provided global value
//	    One-line doc.
//
// Methods and properties are written in methods.spec, read after
// builtins.spec; there `## id` without a title reopens a category:
//
//	inherit range: iter                  a kind answering another's methods
//	method list.take(n: int) -> list<T>  [aliases first_n]
//	property list.count: int  [aliases len]
//
// In a method entry a capital letter is a type parameter (see
// TypeParam): T the element type of a list, V the value type of a dict,
// U bound from an argument; a consumer that does not instantiate sees
// any. A union written with a type parameter folds to any.
//
// Types use Harn's type syntax: int, float, string, bool, nil, bytes, any,
// list, dict, list<T>, dict<K, V>, shapes {a: T, b?: U}, unions A | B,
// string literals, fn(A, B) -> R, the runtime handles the spec defines
// with `type name = opaque` (set, channel, atomic, iter, Result, ...),
// which the checker tells apart by name, and a few other runtime kinds
// (stream, generator, Pair, Option, ...) that it treats as any. A single
// capital letter (T, U, K, V) is a type parameter, also any to the
// checker. `?` marks an optional parameter and `...` a rest parameter
// (last). `needs` lists host capabilities (see Capability).
//
// # Invariants
//
// The package imports only lang/harn/types: the runtime and the
// language server depend on the table without depending on the checker.
// Entries are immutable once built; every function is safe for
// concurrent use.
package builtins
