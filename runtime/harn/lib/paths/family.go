// Package paths holds Harn's path builtins (path_join, basename,
// dirname, extensions, normalising and workspace paths) and Ext, the
// extension rule std/text also reads.
package paths

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the paths family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "paths", Install: install}
