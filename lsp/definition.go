package lsp

import (
	"context"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	r, off, err := s.at(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	ls, err := r.features.Definition(context.Background(), r.snap, off)
	if err != nil {
		return nil, err
	}
	return s.locations(r, ls), nil
}
