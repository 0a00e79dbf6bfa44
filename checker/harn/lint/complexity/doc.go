// Package complexity defines the cyclomatic-complexity lint rule.
//
// # Rule cyclomatic-complexity
//
// cyclomatic-complexity: a function or tool scores at most 25 decision points (HARN-LNT-002).
//
// A warning, on by default.
//
// The score of a function or tool body is 1, plus 1 for every `if` (each
// `else if` included), `for`, `while`, `retry`, `guard`, `match` (once,
// whatever its arms), ternary `?:`, `&&` and `||`, `try` with a catch or
// finally clause, and 1 per case of a `select`. Closures and function
// literals count towards the function they are written in; a nested
// declared function is scored on its own. The rule reports a body whose
// score exceeds the threshold, 25 by default as upstream's (which counts
// the same way); RuleWithThreshold makes a rule with another. The
// attribute `@complexity(allow)` on the function, or on a declaration
// around it, silences it. No fix: split the function.
package complexity
