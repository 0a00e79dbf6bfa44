// Package labels defines the labels rule.
//
// # Rule labels
//
// labels: labels are unique in their function (LEIA4003), a goto names a
// label of its function that it may jump to (LEIA4004), and break and
// continue sit inside a loop (LEIA4005).
//
// Leia's labels work as Go's: each function (and the top level) has its
// own label namespace, and a label may share its name with a variable. A
// goto may jump backwards or forwards, but not into a block (the label's
// block must enclose the goto) and not over a local declaration in the
// same block (a `:=`, `const`, `func`, loop or legacy declaration between
// the goto and a later label), because the skipped name would be in scope
// at the label without having been declared. `break` and `continue` leave
// or restart the innermost loop; outside one they are invalid (`break`
// may also leave a `select`). Function literals, flows and quote blocks
// start a new namespace: a goto cannot leave its function.
package labels
