package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/mapper"
)

func (s *Server) prepareRename(g *glsp.Context, p *protocol.PrepareRenameParams) (any, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	span, err := r.features.PrepareRename(r.ctx, r.snap, off)
	if err != nil || span == nil {
		return nil, err
	}
	return r.m.Range(*span), nil
}

func (s *Server) rename(g *glsp.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	edits, err := r.features.Rename(r.ctx, r.snap, off, p.NewName)
	if err != nil || len(edits) == 0 {
		return nil, err
	}
	pe, mappers, ok := mapper.TextEdits(r.m, edits, s.files(r.doc, nil))
	if !ok {
		return nil, invalidParams("rename touches a file that cannot be read")
	}
	return mapper.WorkspaceEdit(pe, mappers, s.documentChanges()), nil
}
