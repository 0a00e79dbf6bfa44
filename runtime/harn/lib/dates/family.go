// Package dates holds Harn's date builtins (date_now, date_parse,
// date_format, time zones and calendar fields).
package dates

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the dates family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "dates", Install: install}
