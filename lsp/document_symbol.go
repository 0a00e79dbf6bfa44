package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// documentSymbol answers with the hierarchical form when the client
// supports it, else with flat SymbolInformation.
func (s *Server) documentSymbol(g *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	syms, err := r.features.DocumentSymbols(r.ctx, r.snap)
	if err != nil {
		return nil, err
	}
	if !s.hierarchicalSymbols() {
		out := []protocol.SymbolInformation{}
		var walk func(syms []features.Symbol, container string)
		walk = func(syms []features.Symbol, container string) {
			for _, sym := range syms {
				si := protocol.SymbolInformation{Name: sym.Name, Kind: protocol.SymbolKind(sym.Kind), Location: r.m.Location(sym.Span)}
				if container != "" {
					si.ContainerName = ptr(container)
				}
				out = append(out, si)
				walk(sym.Children, sym.Name)
			}
		}
		walk(syms, "")
		return out, nil
	}
	return documentSymbols(r.m, syms), nil
}

func documentSymbols(m *mapper.Mapper, syms []features.Symbol) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	for _, sym := range syms {
		ds := protocol.DocumentSymbol{
			Name: sym.Name, Kind: protocol.SymbolKind(sym.Kind),
			Range: m.Range(sym.Span), SelectionRange: m.Range(sym.SelectionSpan),
		}
		if sym.Detail != "" {
			ds.Detail = ptr(sym.Detail)
		}
		if len(sym.Children) > 0 {
			ds.Children = documentSymbols(m, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}

func (s *Server) hierarchicalSymbols() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.capabilities.TextDocument
	return td != nil && td.DocumentSymbol != nil && td.DocumentSymbol.HierarchicalDocumentSymbolSupport != nil &&
		*td.DocumentSymbol.HierarchicalDocumentSymbolSupport
}
