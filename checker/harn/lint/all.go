// Package lint lists the Harn lint rules: rules of the checker's analysis
// framework (checker/harn/analysis) that `harn-check lint` runs on top of
// the checks, each with a HARN-LNT code, an explanation page, fixtures and
// upstream's default. The rules live in packages below this one (one per
// rule or per small group); this file is the one registration list.
//
// A lint rule reports with diagnostics.SourceLint, the severity of its
// code's page (a warning unless upstream makes it an error), and attaches
// a Fix (text edits) where upstream's linter has an autofix; a fix that
// may change behaviour is marked Unsafe.
package lint

import (
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/simplify"
)

// Rules lists every Harn lint rule in the order of their codes. Adding a
// rule is adding one line here.
var Rules = []*analysis.Rule{
	simplify.ComparisonToBool, // HARN-LNT-032
}
