// Package strings holds Harn's std/text module: number conversions,
// file paths named in text, test cells and errors read from build logs,
// head-and-tail truncation. The string builtins are still in
// runtime/harn.
package strings

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the std/text family, listed by runtime/harn/lib.
var Family = harn.Family{Name: "text", Install: install}
