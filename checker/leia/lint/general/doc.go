// Package general defines the general lint rules of Leia, the ones Harn's
// linter also has: shadowed names, unreachable statements, empty blocks,
// comparisons with a boolean literal and names that mix conventions.
// (Unused locals are the unused rule, LEIA4007, which check already
// runs.) Upstream Leia's linter knows only LEIA0001, LEIA1001 and
// LEIA2001; these continue its LEIA2xxx lint numbering.
//
// # Rule shadow-variable
//
// shadow-variable: an inner declaration hides a name of an enclosing scope (LEIA2002).
//
// A warning, on by default.
//
// Reported: a local, constant, parameter, loop variable or nested
// function whose name an enclosing scope (up to the file) already
// declared before it; `x := x + 1` in a nested block is the classic
// case. Not reported: `_`, and `err` and `ok`, which the two-result
// convention (`v, err := f()`) redeclares on purpose; names of the
// standard library are not locals. Reading the outer value afterwards
// in the inner scope is impossible, which is usually not what was meant.
// No fix: rename one of them.
//
// # Rule unreachable-code
//
// unreachable-code: a statement after one that always leaves the block (LEIA2003).
//
// A warning, on by default.
//
// Reported: the first statement after `return`, `break`, `continue`,
// `goto`, or an `if` whose every branch (an `else` included) ends so, in
// the same block; a label after them starts reachable code again (a
// `goto` may jump to it). Once per block. No fix: the code may be the
// part that was meant to run.
//
// # Rule empty-block
//
// empty-block: a branch or loop with an empty body (LEIA2004).
//
// A warning, on by default.
//
// Reported: the empty body of an `if`, `elseif` or `else` branch or of a
// loop. A body holding only a comment is not empty: the comment says
// why. Function bodies may be empty (a no-op callback). An empty
// `for { }` spins forever. No fix.
//
// # Rule comparison-to-bool
//
// comparison-to-bool: a value compared with true or false (LEIA2005).
//
// A warning, on by default.
//
// Reported: `x == true`, `x != false`, `false == x` and the like. In
// Leia only nil and false are falsy, so `x == true` is not the same as
// `x` when x may be a number or a string, and `x == false` misses nil.
// The fix writes `x` or `!x` (parenthesised when needed); it is unsafe,
// since it changes the result for values that are not booleans.
//
// # Rule naming-convention
//
// naming-convention: a name mixing naming conventions (LEIA2006).
//
// A warning, on by default.
//
// Leia code uses snake_case (`max_retries`), camelCase (`maxRetries`),
// PascalCase for tables used as classes (`Vec`) and UPPER_SNAKE_CASE for
// constants (`MAX_RETRIES`). Reported: a declared function, local,
// constant or parameter whose name mixes them — an underscore between
// words and a capital letter after the first, such as `get_Value` or
// `Max_retries`. Leading and trailing underscores do not count. No fix.
package general
