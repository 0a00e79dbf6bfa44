// Package resilience holds Harn's circuit-breaker builtins
// (circuit_breaker, circuit_check, circuit_record_failure,
// circuit_record_success, circuit_reset).
package resilience

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the circuits family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "circuits", Install: install}
