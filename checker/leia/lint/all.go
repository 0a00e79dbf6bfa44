// Package lint lists the Leia lint rules: rules of the checker's analysis
// framework (checker/leia/analysis) that `harn-check lint` runs on .leia
// files, the general rules Harn's linter also has, under LEIA codes. The
// rules live in packages below this one; this file is the one
// registration list.
package lint

import (
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/lint/general"
	"github.com/harnlang/harn-check/checker/leia/rules/unused"
)

// Rules lists every Leia lint rule. The unused rule (LEIA4007) is also a
// check rule; it is listed so that lint reports unused locals too.
var Rules = []*analysis.Rule{
	unused.Rule,
	general.ShadowVariable,
	general.UnreachableCode,
	general.EmptyBlock,
	general.ComparisonToBool,
	general.NamingConvention,
}
