package lsp

import (
	"cmp"
	"slices"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// workspaceSymbol asks every language with editor features and merges the answers
// in a stable order.
func (s *Server) workspaceSymbol(g *glsp.Context, p *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	out := []protocol.SymbolInformation{}
	regs := s.features
	exts := make([]string, 0, len(regs))
	for ext := range regs {
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	st := s.state(g)
	w := workspace{s: s, ctx: st.ctx, docs: st.docs}
	for _, ext := range exts {
		syms, err := regs[ext].WorkspaceSymbols(st.ctx, w, p.Query)
		if err != nil {
			return nil, err
		}
		for _, sym := range syms {
			m := s.fileMapper(sym.Location.Path)
			if m == nil {
				continue
			}
			si := protocol.SymbolInformation{Name: sym.Name, Kind: protocol.SymbolKind(sym.Kind), Location: m.Location(sym.Location.Span)}
			if sym.Container != "" {
				si.ContainerName = ptr(sym.Container)
			}
			out = append(out, si)
		}
	}
	slices.SortStableFunc(out, func(a, b protocol.SymbolInformation) int {
		return cmp.Or(cmp.Compare(a.Location.URI, b.Location.URI), cmp.Compare(a.Location.Range.Start.Line, b.Location.Range.Start.Line),
			cmp.Compare(a.Location.Range.Start.Character, b.Location.Range.Start.Character))
	})
	return out, nil
}

// fileMapper returns the mapper of an absolute path: the open document or
// the file on disk.
func (s *Server) fileMapper(path string) *mapper.Mapper {
	uri := cache.PathToURI(path)
	if d := s.store.Get(uri); d != nil {
		return s.mapperOf(d)
	}
	if src, err := (workspace{s: s}).ReadFile(path); err == nil {
		return mapper.New(uri, src, nil)
	}
	return nil
}
