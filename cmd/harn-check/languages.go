package main

import (
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
)

func init() {
	frontends.Register()
}

// checkPaths is the one place the CLI runs the driver, so every output
// format sees the same report.
func checkPaths(paths []string) (*diagnostics.Report, error) {
	return driver.Check(paths, driver.Options{})
}
