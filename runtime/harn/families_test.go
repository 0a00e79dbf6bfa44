package harn_test

import (
	"github.com/harnlang/harn-check/runtime/harn"
	"github.com/harnlang/harn-check/runtime/harn/lib"
)

// This package's tests run programs with every family of the runtime,
// those of the packages under runtime/harn/lib included, which package
// harn cannot import; this external test file hands them over.
func init() { harn.AllFamilies = lib.Families }
