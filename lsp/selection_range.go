package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// selectionRange answers textDocument/selectionRange from the language's
// syntax tree (features.SelectionRanger): for each position, the chain of
// enclosing syntax nodes, innermost first. A position with nothing around
// it gets the empty range at itself, as the protocol asks for one result
// per position.
func (s *Server) selectionRange(g *glsp.Context, p *protocol.SelectionRangeParams) ([]protocol.SelectionRange, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	offs := make([]int, len(p.Positions))
	for i, pos := range p.Positions {
		if r.doc.Dropped() {
			break
		}
		if offs[i], err = r.m.Offset(pos); err != nil {
			return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
		}
	}
	var spans = make([][]diagnostics.Span, len(offs))
	if sr, ok := r.features.(features.SelectionRanger); ok && !r.doc.Dropped() {
		got, err := sr.SelectionRanges(r.ctx, r.snap, offs)
		if err != nil {
			return nil, err
		}
		for i := range spans {
			if i < len(got) {
				spans[i] = got[i]
			}
		}
	}
	out := make([]protocol.SelectionRange, len(offs))
	for i, pos := range p.Positions {
		chain := spans[i]
		if len(chain) == 0 {
			out[i] = protocol.SelectionRange{Range: protocol.Range{Start: pos, End: pos}}
			continue
		}
		var parent *protocol.SelectionRange
		for j := len(chain) - 1; j >= 0; j-- {
			sr := &protocol.SelectionRange{Range: r.m.Range(chain[j]), Parent: parent}
			parent = sr
		}
		out[i] = *parent
	}
	return out, nil
}
