// Package testing holds Harn's test-report builtins: parse_junit_xml
// reads a JUnit XML report into suites and cases; the assertion and
// test-double builtins are still in runtime/harn.
package testing

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the junit family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "junit", Install: install}
