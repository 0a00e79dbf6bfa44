// Package unused defines the lint rules about declared names: names
// never used, parameters never read, imports, functions and types never
// referenced, var bindings never assigned again, and names that hide
// others. One walk (Collect) records the declarations with their scopes
// and the names read, typed and assigned; as upstream's linter does, uses
// are counted by name across the file.
//
// # Rule shadow-variable
//
// shadow-variable: a binding that hides another of the same name (HARN-LNT-009).
//
// A const, let or var binding or a parameter is reported when a
// surrounding scope (the file's top level included) already declares the
// name, and an immutable binding when its own scope already holds the
// name. No fix. On by default, as upstream.
//
// # Rule unused-variable
//
// unused-variable: a const, let or var binding never read (HARN-LNT-014).
//
// A binding whose name is read nowhere in the file is reported at its
// name. Names starting with an underscore are exempt, which is how a
// binding kept on purpose says so. The fix renames the binding with a
// leading underscore. On by default, as upstream.
//
// # Rule unused-pattern-binding
//
// unused-pattern-binding: a name bound by a destructuring pattern and never read (HARN-LNT-015).
//
// Dict, list and pair patterns of bindings and for loops are looked at; a
// plain loop variable and the names a match arm binds are not reported.
// No fix. On by default, as upstream.
//
// # Rule unused-parameter
//
// unused-parameter: a parameter of a function or closure never read (HARN-LNT-016).
//
// Pipeline inputs, interface method signatures, `self` and names starting
// with an underscore are exempt. No fix (callers pass the argument). On
// by default, as upstream.
//
// # Rule unused-import
//
// unused-import: a name imported with `import { a } from "m"` and never used (HARN-LNT-017).
//
// `pub import` re-exports and are exempt. The fix removes the name, or
// the whole import when none of its names is used. On by default, as
// upstream.
//
// # Rule mutable-never-reassigned
//
// mutable-never-reassigned: a var binding never assigned again (HARN-LNT-018).
//
// A var binding that no assignment in the file changes (the root name of
// every assignment target counts, so `xs[0] = 1` assigns xs, and so does
// a method called on it, such as xs.push(x), which may change it) keeps its
// value; declaring it with let says so. The fix replaces the keyword. On
// by default, as upstream.
//
// # Rule unused-function
//
// unused-function: a function that is not pub and never referenced (HARN-LNT-019).
//
// A function whose name is used nowhere in the file is dead code unless
// another module imports it, and a module can import only pub ones.
// Methods of impl blocks, main (the entry point) and names starting with
// an underscore are exempt. No fix. On by default, as upstream.
//
// # Rule unused-type
//
// unused-type: a type, struct, enum or interface never referenced (HARN-LNT-020).
//
// A declaration that no annotation, signature, constructor or pattern
// names is reported at its name. Public declarations (other modules may
// use them; upstream reports them too, which we do not) and names
// starting with an underscore are exempt. No fix. On by default, as
// upstream.
package unused
