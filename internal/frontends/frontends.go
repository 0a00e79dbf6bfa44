// Package frontends registers the language front ends with the driver, so
// that harn-check and leia-lsp analyse exactly the same languages the same
// way. It is wiring only: each front end's logic lives in its own package
// under grammar/ and checker/.
package frontends

import (
	"sync"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
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

// Harn is the Harn front end: its parser, and the Harn checker (syntax,
// types, narrowing and the decision-evaluation contract) over the file and
// its imports.
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
			// Imports and harn.toml are read from disk; HARN-CHK-002 ("syntax
			// checked only") is no longer emitted now that the checker runs.
			res := harnchecker.Check(path, src, harnchecker.Options{Loader: harnchecker.OSLoader{}})
			return driver.Result{Diagnostics: res.Diagnostics, Sources: res.Sources}
		},
	}
}
