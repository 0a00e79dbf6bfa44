package lsp

import (
	"context"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	r, off, err := s.at(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, err := r.features.Hover(context.Background(), r.snap, off)
	if err != nil || h == nil {
		return nil, err
	}
	rng := r.m.Range(h.Span)
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown},
		Range:    &rng,
	}, nil
}
