package leialang

import (
	"context"
	"slices"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// InlayHints implements features.InlayHinter: after the name of each
// variable or constant declared with a value of a type the checker knows
// (a literal, a builtin's result, an operator with a fixed result type, a
// name declared once: semantic.Facts.TypeOf), that type, from the
// checker's model of the document (the one definition and hover read).
// No hints for a document that does not parse, and none for parameters,
// whose types Leia does not declare nor the checker infer.
func (f *Features) InlayHints(ctx context.Context, s features.Snapshot, within diagnostics.Span) ([]features.InlayHint, error) {
	t := treeOf(s)
	if t == nil || t.RootNode().HasError() || s.Doc.Model == nil {
		return nil, nil
	}
	e := s.Doc.Model()
	m := e.Model()
	if m == nil {
		return nil, nil
	}
	var out []features.InlayHint
	for i := range m.NumDefs() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		d, ok := e.Def(i)
		if !ok || d.Type == "" || d.Kind != "variable" && d.Kind != "constant" ||
			d.Span.End < within.Start || d.Span.Start > within.End {
			continue
		}
		out = append(out, features.InlayHint{Offset: d.Span.End, Label: ": " + d.Type, Kind: "type"})
	}
	slices.SortFunc(out, func(a, b features.InlayHint) int { return a.Offset - b.Offset })
	return out, nil
}

var _ features.InlayHinter = (*Features)(nil)
