// Package immutable defines the immutable rule.
//
// # Rule immutable
//
// immutable: a binding declared with let or const is not assigned again
// (HARN-OWN-001, a warning).
//
// `let` and `const` declare immutable bindings and `var` a mutable one.
// Assigning to an immutable binding (`x = 2`, `x += 2`) fails when the
// program runs; the checker warns, as upstream Harn's checker does, in its
// words: "Cannot assign to 'x': variable is immutable (declared with
// 'let')". The warning points at the declaration too. Fields and elements
// of an immutable binding (`p.x = 1`, `xs[0] = 1`) may still be written.
package immutable
