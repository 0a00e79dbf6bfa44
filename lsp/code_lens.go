package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/features"
)

// codeLens answers textDocument/codeLens from the language's
// features.Lenser: run / replay commands (features.CommandRun, whose
// argument carries the harn-check argv) on Harn test pipelines and Leia
// evaluate blocks. The client executes the command; the server has no
// executeCommand of its own.
func (s *Server) codeLens(g *glsp.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	l, ok := r.features.(features.Lenser)
	if !ok || r.doc.Dropped() {
		return out, nil
	}
	lenses, err := l.CodeLenses(r.ctx, r.snap)
	if err != nil {
		return nil, err
	}
	for _, k := range lenses {
		out = append(out, protocol.CodeLens{Range: r.m.Range(k.Span),
			Command: &protocol.Command{Title: k.Title, Command: k.Command, Arguments: k.Arguments}})
	}
	return out, nil
}
