// Package compression holds Harn's compression and archive builtins:
// gzip, tar and zip.
package compression

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the compression family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "compression", Install: install}
