package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// documentHighlight answers textDocument/documentHighlight from the
// language's own name resolution: the references of the name at the
// position that are in this document, its declaration marked as a write
// and the other uses as reads. (For Harn and Leia that resolution is the
// checker's semantic model, the one definition and references use, not a
// second resolver.)
func (s *Server) documentHighlight(g *glsp.Context, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentHighlight{}
	refs, err := r.features.References(r.ctx, r.snap, off, true)
	if err != nil || len(refs) == 0 {
		return out, err
	}
	defs, err := r.features.Definition(r.ctx, r.snap, off)
	if err != nil {
		return nil, err
	}
	here := func(path string) bool { return path == "" || path == r.doc.Path }
	decl := map[[2]int]bool{}
	for _, d := range defs {
		if here(d.Path) {
			decl[[2]int{d.Span.Start, d.Span.End}] = true
		}
	}
	seen := map[[2]int]bool{}
	for _, l := range refs {
		key := [2]int{l.Span.Start, l.Span.End}
		if !here(l.Path) || seen[key] {
			continue
		}
		seen[key] = true
		kind := protocol.DocumentHighlightKindRead
		if decl[key] {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: r.m.Range(l.Span), Kind: &kind})
	}
	return out, nil
}
