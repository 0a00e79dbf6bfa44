package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) hover(g *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, err := r.features.Hover(r.ctx, r.snap, off)
	if err != nil || h == nil {
		return nil, err
	}
	rng := r.m.Range(h.Span)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown},
		Range:    &rng,
	}, nil
}
