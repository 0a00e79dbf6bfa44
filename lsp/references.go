package lsp

import (
	"context"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) references(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	r, off, err := s.at(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	ls, err := r.features.References(context.Background(), r.snap, off, p.Context.IncludeDeclaration)
	if err != nil {
		return nil, err
	}
	return s.locations(r, ls), nil
}
