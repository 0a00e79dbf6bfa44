package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) definition(g *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	ls, err := r.features.Definition(r.ctx, r.snap, off)
	if err != nil {
		return nil, err
	}
	return s.locations(r, ls), nil
}
