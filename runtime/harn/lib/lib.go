// Package lib assembles Harn's runtime library: the list of builtin
// families (those of runtime/harn and those of the packages under
// runtime/harn/lib) is written out here, once, and built into the
// library every interpreter of the process shares.
package lib

import (
	"context"
	"sync"

	"github.com/harnlang/harn-check/runtime/harn"
	"github.com/harnlang/harn-check/runtime/harn/lib/compression"
	"github.com/harnlang/harn-check/runtime/harn/lib/crypto"
	"github.com/harnlang/harn-check/runtime/harn/lib/data"
	"github.com/harnlang/harn-check/runtime/harn/lib/dates"
	"github.com/harnlang/harn-check/runtime/harn/lib/encoding"
	"github.com/harnlang/harn-check/runtime/harn/lib/http"
	"github.com/harnlang/harn-check/runtime/harn/lib/math"
	"github.com/harnlang/harn-check/runtime/harn/lib/paths"
	"github.com/harnlang/harn-check/runtime/harn/lib/postgres"
	"github.com/harnlang/harn-check/runtime/harn/lib/regex"
	"github.com/harnlang/harn-check/runtime/harn/lib/resilience"
	"github.com/harnlang/harn-check/runtime/harn/lib/strings"
	"github.com/harnlang/harn-check/runtime/harn/lib/testing"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Families lists every builtin family of Harn's runtime: those still in
// runtime/harn, then those of the packages under this folder. A name (of
// a family, builtin, std module or harness method) declared twice makes
// Library fail.
func Families() []harn.Family {
	return append(harn.Families(),
		dates.Family,
		regex.Family,
		compression.Family,
		crypto.Family,
		encoding.Family,
		math.Family,
		http.Family,
		data.Family,
		resilience.Family,
		testing.Family,
		paths.Family,
		strings.Family,
		postgres.Family,
	)
}

// library is built at the first run, not at start-up: a process that
// never runs a Harn program (a check, a Leia run) does not build it.
var library = sync.OnceValues(func() (*harn.Library, error) { return harn.NewLibrary(Families()) })

// Library is Harn's runtime library, built from Families once per
// process.
func Library() (*harn.Library, error) { return library() }

// RunProgram runs a Harn program with Harn's library (the run facet of
// Harn's language value).
func RunProgram(ctx context.Context, p runner.Program, env runner.Env) error {
	lib, err := library()
	if err != nil {
		return err
	}
	return lib.RunProgram(ctx, p, env)
}
