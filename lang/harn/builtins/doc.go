// Package builtins is the table of Harn's builtin functions and
// runtime-provided global values: one entry per name with its parameters,
// result type, category, the host capabilities it needs and a one-line
// doc. Three consumers read it:
//
//   - the checker (package infer) types calls of builtins, builtins used
//     as values (`rekey(snake_to_camel)`) and namespace members
//     (`stream.map(...)`, `event_log.emit(...)`), and resolves names;
//   - the language server iterates it for completion and reads parameter
//     names, types and docs for signature help and hover;
//   - the runtime looks builtins up by name to attach implementations and
//     asks which host capability (Needs) a call requires.
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
//
// # The spec file
//
// The table is written in builtins.spec (embedded, parsed once on first
// use). It is our own compact description of the facts of Harn's standard
// library; a test keeps it well formed. The format, line by line:
//
//	# comment
//	## strings: String functions       a category: id, then its title
//	name(p: T, q?: U, ...rest: V) -> R  [needs fs, net]
//	    One-line doc.                   (indented: the doc of the entry above)
//	value name: T                       a runtime-provided global value
//	    One-line doc.
//
// Types use Harn's type syntax: int, float, string, bool, nil, bytes, any,
// list, dict, list<T>, dict<K, V>, shapes {a: T, b?: U}, unions A | B,
// string literals, fn(A, B) -> R, and a few opaque runtime kinds (set,
// channel, atomic, iter, stream, generator, Result, closure, duration)
// that the checker treats as any. A single capital letter (T, U, K, V) is a
// type parameter, also any to the checker. `?` marks an optional
// parameter and `...` a rest parameter (last). `needs` lists host
// capabilities (see Capability).
//
// # Invariants
//
// The package imports only lang/harn/types: the runtime and the
// language server depend on the table without depending on the checker.
// Entries are immutable once built; every function is safe for
// concurrent use.
package builtins
