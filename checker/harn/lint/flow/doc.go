// Package flow defines the lint rules about the statements of a body:
// code after a statement that always leaves, blocks with nothing in them,
// an else after a returning branch, and a binding returned at once.
//
// # Rule dead-code-after-return
//
// dead-code-after-return: statements after return, throw, break or continue (HARN-LNT-011).
//
// In a list of statements, everything after one that always leaves the
// body (return, throw, break, continue, or an if whose branches all
// leave) never runs. The rule reports the first such statement, once per
// body. Upstream also answers to the name unreachable-code, which
// selects or ignores this rule. On by default, as upstream; no fix, since
// the dead code may be the part that was meant to run.
//
// # Rule empty-block
//
// empty-block: an if, for, while or try with an empty body (HARN-LNT-035).
//
// An empty body is usually unfinished code. The rule reports an if whose
// then-branch is empty, and for, while and try statements with nothing in
// their body. For an if without else over a condition without effects,
// and a for over an iterable without effects, the fix removes the
// statement. On by default, as upstream.
//
// # Rule unnecessary-else-return
//
// unnecessary-else-return: an else after a branch that returns (HARN-LNT-036).
//
// When both the then-branch and the else-branch of an if end in return,
// the else adds a level of nesting for nothing: its body can follow the
// if. The fix moves the else body after the if (re-run fmt to indent it).
// On by default, as upstream.
//
// # Rule let-then-return
//
// let-then-return: a binding that is returned by the next statement (HARN-LNT-012).
//
// `let x = expr` (or const) without a type annotation directly followed
// by `return x` names a value only to return it. The fix returns the
// expression; it is unsafe when a comment lies between the two
// statements, since the fix drops it. On by default, as upstream.
package flow
