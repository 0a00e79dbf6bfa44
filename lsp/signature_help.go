package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func (s *Server) signatureHelp(g *glsp.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, err := r.features.SignatureHelp(r.ctx, r.snap, off)
	if err != nil || h == nil {
		return nil, err
	}
	out := &protocol.SignatureHelp{
		ActiveSignature: ptr(protocol.UInteger(max(h.ActiveSignature, 0))),
		ActiveParameter: ptr(protocol.UInteger(max(h.ActiveParameter, 0))),
	}
	for _, sig := range h.Signatures {
		si := protocol.SignatureInformation{Label: sig.Label}
		if sig.Documentation != "" {
			si.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: sig.Documentation}
		}
		for _, prm := range sig.Parameters {
			pi := protocol.ParameterInformation{Label: prm.Label}
			if prm.Documentation != "" {
				pi.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: prm.Documentation}
			}
			si.Parameters = append(si.Parameters, pi)
		}
		out.Signatures = append(out.Signatures, si)
	}
	return out, nil
}
