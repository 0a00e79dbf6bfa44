// Package rethrow defines the rethrow rule.
//
// # Rule rethrow
//
// rethrow: `try*` needs an enclosing function (HARN-TYP-014).
//
// `try* x` evaluates x and, when it throws, rethrows the error from the
// function it is in, so the caller's catch receives it. At the module's
// top level there is no function to rethrow from; upstream Harn rejects
// it before running ("try* requires an enclosing function (fn, tool, or
// pipeline) so the rethrow has a target"). A closure counts as a function.
package rethrow
