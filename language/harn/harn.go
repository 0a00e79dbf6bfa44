// Package harn is the Harn language as one value (Language): the checker
// front end of internal/frontends, the interpreter of runtime/harn and the
// editor features of lsp/harnlang. Binaries list it where they are
// assembled; nothing registers it.
package harn

import (
	"sync"

	harnlint "github.com/harnlang/harn-check/checker/harn/lint"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/harnlang"
	runtime "github.com/harnlang/harn-check/runtime/harn/lib"
)

// front is Harn's parse and check.
var front = frontends.Harn()

// Language is Harn: `.harn` files.
var Language = language.Language{
	Name:      front.Name,
	Extension: front.Extension,
	Check:     front.Check,
	Parse:     front.Parse,
	Format:    &format.Harn,
	Lint:      language.LintOf(harnlint.Rules),
	Run:       runtime.RunProgram,
	Editor:    editor,
}

// editor compiles Harn's editor features once per process, at the first
// server's start; every server shares them (their cache of the symbols of
// files on disk included).
var editor = sync.OnceValues(func() (language.Editor, error) {
	f, err := harnlang.New()
	if err != nil {
		return language.Editor{}, err
	}
	return language.Editor{Syntax: f.Syntax(), Features: f}, nil
})
