// Package names defines the names rule.
//
// # Rule names
//
// names: every name must be declared (LEIA4001), and eval exists only
// inside evaluate blocks (LEIA3007). In a file that compiles source at
// run time, an undeclared name that is only read is a warning (LEIA4010),
// and so is an undeclared name standing alone in an interpolation of a
// double-quoted string, "${NAME}", a placeholder (LEIA4011).
//
// A name is declared by `:=`, `const`, `func`, an import, a parameter, a
// loop variable, a legacy tool or agent declaration, or it is one of
// Leia's predeclared names (print, string, llm, ...; package
// lang/leia/stdlib), or a global the project's embedder installs, declared
// in harn.toml ([leia] host_modules = ["billing"]). Reading a name nothing declares fails at run time,
// and so does assigning to one: Leia has no implicit globals. A name used
// before its declaration at the same level is reported with the later
// declaration as a related span; inside a function body every name its
// enclosing scopes declare counts, wherever it appears, because the body
// runs later. The message suggests the nearest declared or predeclared name
// (edit distance), with a fix that replaces it.
//
// Names written in a tools list are left to the tools-list rule, which
// says more (LEIA3001). The evaluation harness's eval module is
// predeclared only inside `evaluate "name" { ... }` blocks; using it
// elsewhere is LEIA3007.
//
// Chunks compiled at run time (load, loadfile, dofile, script.eval,
// script.compile, script.run, script.runFile, script.loadFile) share the
// program's globals, so a name read in a file that makes such a call may be
// declared by the loaded code. Such a read is LEIA4010, a warning pointing
// at the loading call; assignments and uses before a later declaration
// stay LEIA4001. require does not count: a module keeps its declarations.
package names
