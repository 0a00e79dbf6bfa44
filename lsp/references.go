package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) references(g *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	ls, err := r.features.References(r.ctx, r.snap, off, p.Context.IncludeDeclaration)
	if err != nil {
		return nil, err
	}
	return s.locations(r, ls), nil
}
