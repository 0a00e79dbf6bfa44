package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

// documentLink answers textDocument/documentLink from the language's
// features.Linker (Harn: relative imports open their module's file).
func (s *Server) documentLink(g *glsp.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	l, ok := r.features.(features.Linker)
	if !ok || r.doc.Dropped() {
		return out, nil
	}
	links, err := l.DocumentLinks(r.ctx, r.snap)
	if err != nil {
		return nil, err
	}
	for _, k := range links {
		dl := protocol.DocumentLink{Range: r.m.Range(k.Span), Target: ptr(cache.PathToURI(k.Target))}
		if k.Tooltip != "" {
			dl.Tooltip = ptr(k.Tooltip)
		}
		out = append(out, dl)
	}
	return out, nil
}
