package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path := cache.URIToPath(f.URI); path != "" {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if path := cache.URIToPath(*p.RootURI); path != "" {
			roots = append(roots, path)
		}
	}
	s.mu.Lock()
	s.roots = roots
	s.capabilities = p.Capabilities
	s.mu.Unlock()
	client := "unknown client"
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name
	}
	s.log.Printf("initialize from %s, roots %v", client, roots)
	return protocol.InitializeResult{Capabilities: capabilities(), ServerInfo: &protocol.InitializeResultServerInfo{
		Name: Name, Version: ptr(version.Version),
	}}, nil
}

// capabilities announces every feature the server routes; languages that
// do not implement one yet answer it with an empty result.
func capabilities() protocol.ServerCapabilities {
	return protocol.ServerCapabilities{
		TextDocumentSync: protocol.TextDocumentSyncOptions{
			OpenClose: ptr(true),
			Change:    ptr(protocol.TextDocumentSyncKindIncremental),
			Save:      protocol.SaveOptions{IncludeText: ptr(false)},
		},
		HoverProvider:           true,
		DefinitionProvider:      true,
		ReferencesProvider:      true,
		DocumentSymbolProvider:  true,
		WorkspaceSymbolProvider: true,
		CodeActionProvider: protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
			protocol.CodeActionKindQuickFix, codeActionSourceFixAll,
		}},
		SemanticTokensProvider: protocol.SemanticTokensOptions{
			Legend: protocol.SemanticTokensLegend{TokenTypes: features.TokenTypes, TokenModifiers: features.TokenModifiers},
			Full:   protocol.SemanticDelta{Delta: ptr(true)},
		},
		FoldingRangeProvider: true,
		CompletionProvider:   &protocol.CompletionOptions{TriggerCharacters: []string{".", ":"}},
		SignatureHelpProvider: &protocol.SignatureHelpOptions{
			TriggerCharacters: []string{"(", ","},
		},
		RenameProvider:                  protocol.RenameOptions{PrepareProvider: ptr(true)},
		DocumentFormattingProvider:      true,
		DocumentRangeFormattingProvider: true,
	}
}

func (s *Server) initialized(*glsp.Context, *protocol.InitializedParams) error { return nil }

func (s *Server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.diags.stop()
	s.log.Printf("shutdown")
	return nil
}

func (s *Server) exit(*glsp.Context) error {
	s.log.Printf("exit")
	return nil
}

func (s *Server) setTrace(*glsp.Context, *protocol.SetTraceParams) error { return nil }

// cancelRequest is accepted and ignored: requests are answered in order
// and quickly, so by the time a cancellation is read its request is done.
func (s *Server) cancelRequest(*glsp.Context, *protocol.CancelParams) error { return nil }

func ptr[T any](v T) *T { return &v }
