package lsp

import (
	"slices"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/cache"
)

// didChangeWorkspaceFolders keeps the workspace roots features see.
func (s *Server) didChangeWorkspaceFolders(_ *glsp.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.Event.Removed {
		if path := cache.URIToPath(f.URI); path != "" {
			s.roots = slices.DeleteFunc(s.roots, func(r string) bool { return r == path })
		}
	}
	for _, f := range p.Event.Added {
		if path := cache.URIToPath(f.URI); path != "" && !slices.Contains(s.roots, path) {
			s.roots = append(s.roots, path)
		}
	}
	s.log.Printf("workspace roots %v", s.roots)
	return nil
}

// didChangeConfiguration is accepted: the server has no settings yet.
func (s *Server) didChangeConfiguration(*glsp.Context, *protocol.DidChangeConfigurationParams) error {
	return nil
}
