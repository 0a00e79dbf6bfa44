// Package regex holds Harn's regular-expression builtins (regex_match,
// regex_replace, regex_split, regex_captures).
package regex

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the regex family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "regex", Install: install}
