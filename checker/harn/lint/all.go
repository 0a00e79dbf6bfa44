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
	"github.com/harnlang/harn-check/checker/harn/lint/complexity"
	"github.com/harnlang/harn-check/checker/harn/lint/docs"
	"github.com/harnlang/harn-check/checker/harn/lint/effects"
	"github.com/harnlang/harn-check/checker/harn/lint/flow"
	"github.com/harnlang/harn-check/checker/harn/lint/layout"
	"github.com/harnlang/harn-check/checker/harn/lint/naming"
	"github.com/harnlang/harn-check/checker/harn/lint/placement"
	"github.com/harnlang/harn-check/checker/harn/lint/simplify"
	"github.com/harnlang/harn-check/checker/harn/lint/unused"
)

// Rules lists every Harn lint rule in the order of their codes. Adding a
// rule is adding one line here.
var Rules = []*analysis.Rule{
	complexity.CyclomaticComplexity,    // HARN-LNT-002
	naming.NamingConvention,            // HARN-LNT-003
	simplify.EagerCollectionConversion, // HARN-LNT-004
	simplify.RedundantClone,            // HARN-LNT-005
	effects.LongRunningWithoutCleanup,  // HARN-LNT-006
	effects.PROpenWithoutSecretScan,    // HARN-LNT-008
	unused.ShadowVariable,              // HARN-LNT-009
	flow.DeadCodeAfterReturn,           // HARN-LNT-011 (also unreachable-code)
	flow.LetThenReturn,                 // HARN-LNT-012
	effects.UnhandledApprovalResult,    // HARN-LNT-013
	unused.UnusedVariable,              // HARN-LNT-014
	unused.UnusedPatternBinding,        // HARN-LNT-015
	unused.UnusedParameter,             // HARN-LNT-016
	unused.UnusedImport,                // HARN-LNT-017
	unused.MutableNeverReassigned,      // HARN-LNT-018
	unused.UnusedFunction,              // HARN-LNT-019
	unused.UnusedType,                  // HARN-LNT-020
	placement.PipelineReturnType,       // HARN-LNT-023
	docs.MissingHarndoc,                // HARN-LNT-024
	placement.AssertOutsideTest,        // HARN-LNT-025
	effects.PromptInjectionRisk,        // HARN-LNT-026
	effects.ConnectorEffectPolicy,      // HARN-LNT-027
	simplify.UnnecessaryCast,           // HARN-LNT-028
	effects.UntypedDictAccess,          // HARN-LNT-029
	simplify.PointlessComparison,       // HARN-LNT-031
	simplify.ComparisonToBool,          // HARN-LNT-032
	simplify.InvalidBinaryOpLiteral,    // HARN-LNT-033
	simplify.RedundantNilTernary,       // HARN-LNT-034
	flow.EmptyBlock,                    // HARN-LNT-035
	flow.UnnecessaryElseReturn,         // HARN-LNT-036
	simplify.DuplicateMatchArm,         // HARN-LNT-037
	placement.RequireInTest,            // HARN-LNT-038
	placement.BreakOutsideLoop,         // HARN-LNT-039
	layout.BlankLineBetweenItems,       // HARN-LNT-041
	layout.TrailingComma,               // HARN-LNT-042
	docs.RequireFileHeader,             // HARN-LNT-045 (opt-in)
	layout.ImportOrder,                 // HARN-LNT-047
	docs.LegacyDocComment,              // HARN-LNT-049
}

// RulesWithThreshold is Rules with the cyclomatic-complexity rule
// reporting scores above threshold (harn.toml's `[lint]
// complexity_threshold`); a threshold below 1 keeps the default.
func RulesWithThreshold(threshold int) []*analysis.Rule {
	if threshold < 1 {
		return Rules
	}
	out := make([]*analysis.Rule, len(Rules))
	for i, r := range Rules {
		if r == complexity.CyclomaticComplexity {
			r = complexity.RuleWithThreshold(threshold)
		}
		out[i] = r
	}
	return out
}
