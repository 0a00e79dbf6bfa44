// Package names defines the names rule.
//
// # Rule names
//
// names: every name must resolve (HARN-NAM-001 undefined variable,
// HARN-NAM-002 undefined function).
//
// A name is looked up lexically: block, enclosing functions, the module
// (declarations in any order, imports), then the built-ins. A called name
// that resolves nowhere is HARN-NAM-002; any other is HARN-NAM-001. When
// an import of the module failed to resolve, the names it would have
// brought are unknown, so nothing is reported (checking degrades rather
// than guessing). The built-ins are the functions of Harn's builtin
// reference (package infer lists them), `harness` (a Harness) and
// `context`.
package names
