// Package runtimes registers the language runtimes with runtime/runner,
// so that `harn-check run` and `harn-check test` find a program's runtime
// by its file extension. It is wiring only: one line per language.
package runtimes

import (
	"sync"

	"github.com/harnlang/harn-check/runtime/harn"
	"github.com/harnlang/harn-check/runtime/leia"
	// The Leia AI dialect installs itself into every Leia run.
	_ "github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/runner"
)

var once sync.Once

// Register installs every available runtime. It is idempotent.
func Register() {
	once.Do(func() {
		runner.Register(harn.Language())
		runner.Register(leia.Language())
	})
}
