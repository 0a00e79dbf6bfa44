// Package data holds Harn's data-query builtins: jq and jq_first, a jq
// subset over Harn values.
package data

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the jq family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "jq", Install: install}
