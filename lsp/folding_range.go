package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) foldingRange(g *glsp.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	folds, err := r.features.FoldingRanges(r.ctx, r.snap)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	seen := map[[2]protocol.UInteger]bool{}
	for _, f := range folds {
		rng := r.m.Range(f.Span)
		if rng.End.Line <= rng.Start.Line {
			continue // a fold must span lines
		}
		// Nested nodes over the same lines (a for statement and its
		// block) are one fold to the editor.
		key := [2]protocol.UInteger{rng.Start.Line, rng.End.Line}
		if seen[key] {
			continue
		}
		seen[key] = true
		fr := protocol.FoldingRange{StartLine: rng.Start.Line, EndLine: rng.End.Line}
		if f.Kind != "" {
			fr.Kind = ptr(f.Kind)
		}
		out = append(out, fr)
	}
	return out, nil
}
