// Package declarations defines the declarations rule.
//
// # Rule declarations
//
// declarations: legacy declarations are unique where they are visible,
// and agent defaults are declared once, at the top level (LEIA3001).
//
// A legacy `tool name(...)` or `agent name(...)` declaration may not
// reuse the name of a tool or agent declared before it in the same scope
// or an enclosing one (Leia's validator keeps one registry per scope,
// inherited by nested blocks). `agent defaults { ... }` applies to every
// agent of the module, so it must be written at the top level of the
// file, and only once. The messages are those of Leia's own validator.
package declarations
