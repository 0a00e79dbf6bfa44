// Package math holds Harn's number builtins (roots, trigonometry,
// logarithms, rounding, min and max, statistics) and the std/math
// module.
package math

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the math family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "math", Install: install}
