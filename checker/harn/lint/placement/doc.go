// Package placement defines the Harn lint rules about where a construct
// belongs: assertions in tests, require outside them, break and continue
// in loops, and a declared result on public pipelines.
//
// A test pipeline is a pipeline named `test` or starting with `test_`, as
// upstream's `harn test` runs them; a function declared inside one counts
// as test code, a function called from one does not.
//
// # Rule pipeline-return-type
//
// pipeline-return-type: a public pipeline without a declared result type (HARN-LNT-023).
//
// A warning, on by default.
//
// Reported: `pub pipeline NAME(...)` without `-> T`, unless NAME is an
// entry pipeline (`default`, `main`, `auto`) or a test pipeline. Other
// modules call a public pipeline; its result type is its contract, and
// upstream announces that it will become mandatory. No fix: only the
// author knows the type.
//
// # Rule assert-outside-test
//
// assert-outside-test: assert, assert_eq or assert_ne outside a test pipeline (HARN-LNT-025).
//
// A warning, on by default.
//
// Reported: a call of the builtin `assert`, `assert_eq` or `assert_ne`
// outside every test pipeline. Production code states its invariants
// with `require cond, "message"`, which says what failed in the
// program's own terms. No fix: the message to give is the author's.
//
// # Rule require-in-test
//
// require-in-test: require in a test pipeline (HARN-LNT-038).
//
// A warning, on by default.
//
// Reported: a `require` statement inside a test pipeline. `assert` and
// `assert_eq` report the values compared, which is what a failing test
// needs to show. No fix.
//
// # Rule break-outside-loop
//
// break-outside-loop: break or continue outside a loop (HARN-LNT-039, an error).
//
// An error, on by default.
//
// Reported: `break` or `continue` with no enclosing `for` or `while` in
// the same function. A closure, function literal or nested function is a
// boundary: a `break` in the body given to `parallel each` or to a
// callback does not leave the loop around the call. The program fails
// when the statement runs. No fix.
package placement
