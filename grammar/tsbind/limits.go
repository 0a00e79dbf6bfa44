package tsbind

import (
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/tsflat"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
)

// Options bound a parse and its lowering, the same for both grammars.
type Options struct {
	// MaxNesting bounds the depth of the syntax tree that is lowered and
	// diagnosed; 0 means limits.Default.Nesting. A deeper tree is not
	// lowered at all (see Crossing).
	MaxNesting int
	// MaxSyntaxErrors bounds the syntax diagnostics listed; 0 means
	// limits.Default.SyntaxErrors. The rest are summarised by one
	// HARN-LIM-007 note (limits.CapSyntaxErrors).
	MaxSyntaxErrors int
}

// Prescan refuses, before any parse, a source whose brackets nest far
// past the nesting limit (tsutil.BracketDepth): the diagnostic to report
// (HARN-LIM-002 at the deepest bracket), and whether the source is
// refused. The parser itself would recurse that deep.
func (o Options) Prescan(path string, src []byte) (diagnostics.Diagnostic, bool) {
	if depth, at, over := tsutil.BracketDepthOver(src, limits.PrescanDepth(o.MaxNesting)); over {
		return limits.BracketDiagnostic(path, diagnostics.SourceParser, at, depth, o.MaxNesting), true
	}
	return diagnostics.Diagnostic{}, false
}

// Crossing checks the nesting of a tree's records in one pass: every
// later walk (lowering, diagnostics, the checker's passes, the language
// server's features) recurses once per level, so a tree deeper than the
// limit is not lowered. chains are the symbols of binary nodes a lowering
// flattens without recursion, counted against limits.ChainLength instead.
// It returns the diagnostic (HARN-LIM-002 at the first node past the
// limit) and whether the tree is too deep.
func (o Options) Crossing(path string, recs []tsflat.Record, chains map[uint16]bool) (diagnostics.Diagnostic, bool) {
	maxNesting := o.MaxNesting
	if maxNesting <= 0 {
		maxNesting = limits.Default.Nesting
	}
	if at, depth, limit, over := tsflat.Crossing(recs, chains, maxNesting, limits.ChainLength(maxNesting)); over {
		return limits.NestingDiagnostic(path, diagnostics.SourceParser, int(recs[at].StartByte), depth, limit), true
	}
	return diagnostics.Diagnostic{}, false
}

// CapSyntaxErrors keeps the first MaxSyntaxErrors of diags
// (limits.CapSyntaxErrors).
func (o Options) CapSyntaxErrors(path string, diags []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	return limits.CapSyntaxErrors(path, diags, o.MaxSyntaxErrors)
}
