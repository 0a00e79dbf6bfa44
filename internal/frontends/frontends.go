// Package frontends registers the language front ends with the driver, so
// that harn-check and leia-lsp analyse exactly the same languages the same
// way. It is wiring only: each front end's logic lives in its own package
// under grammar/ and checker/.
package frontends

import (
	"sync"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
)

var once sync.Once

// Languages returns every available front end.
func Languages() []driver.Language {
	return []driver.Language{Harn()}
}

// Register installs every available front end with the driver. It is
// idempotent.
func Register() {
	once.Do(func() {
		for _, l := range Languages() {
			driver.Register(l)
		}
	})
}

// Harn is the Harn front end: its parser, and a check that reports syntax
// errors and says honestly that the type and contract rules are not yet
// available.
func Harn() driver.Language {
	return driver.Language{
		Name:      "Harn",
		Extension: ".harn",
		Parse: func(path string, src []byte, sexp bool) (string, []diagnostics.Diagnostic) {
			file, diags := harnbinding.Parse(path, src)
			if sexp {
				tree := harnbinding.ParseTree(src, nil)
				if tree == nil {
					// The parser gave up; Parse's diagnostic says so.
					return "(ERROR)", diags
				}
				defer tree.Close()
				return tree.RootNode().ToSexp(), diags
			}
			return ast.Dump(file), diags
		},
		Check: func(path string, src []byte) driver.Result {
			_, diags := harnbinding.Parse(path, src)
			if len(diags) == 0 {
				d := diagnostics.New(path, diagnostics.SourceSetup, "HARN-CHK-002", diagnostics.Span{},
					"syntax checked only: the Harn type and contract rules are not available in this build")
				d.Help = "no syntax errors were found; type errors and evaluation-contract violations were not looked for"
				diags = append(diags, d)
			}
			return driver.Result{Diagnostics: diags}
		},
	}
}
