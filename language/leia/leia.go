// Package leia is the Leia language as one value (Language): the checker
// front end of internal/frontends, the interpreter of runtime/leia with
// its AI dialect (runtime/leia/ai) and the editor features of
// lsp/leialang. Binaries list it where they are assembled; nothing
// registers it.
package leia

import (
	"sync"

	leialint "github.com/harnlang/harn-check/checker/leia/lint"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/leialang"
	"github.com/harnlang/harn-check/runtime/leia/ai"
)

// front is Leia's parse and check.
var front = frontends.Leia()

// Language is Leia: `.leia` files.
var Language = language.Language{
	Name:      front.Name,
	Extension: front.Extension,
	Check:     front.Check,
	Parse:     front.Parse,
	Format:    &format.Leia,
	Lint:      language.LintOf(leialint.Rules),
	Run:       ai.RunProgram, // the interpreter with its AI layer
	Editor:    editor,
}

// editor compiles Leia's editor features once per process, at the first
// server's start.
var editor = sync.OnceValues(func() (language.Editor, error) {
	f, syn, err := leialang.New()
	if err != nil {
		return language.Editor{}, err
	}
	return language.Editor{Syntax: syn, Features: f}, nil
})
