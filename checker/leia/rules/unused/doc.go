// Package unused defines the unused rule.
//
// # Rule unused
//
// unused: a local declared inside a function and never read is probably a
// mistake (LEIA4007, a warning).
//
// Reported: a name declared with `:=` or `const`, or a function declared
// with `func`, inside a function body (a function literal, a tool's body,
// an agent's flow, an evaluate block) that nothing reads. Assigning the
// name again does not count as reading it. Not reported: names declared at
// the top level of a file (the host and the evaluation harness can read
// them), parameters (their order is the calling convention), loop
// variables, the names a legacy flow receives, and `_`. Write `_` for a
// value you mean to drop: `_, err := f()`. The fix renames the local to
// `_` when it is one of several names declared together, and otherwise
// leaves the code alone.
package unused
