package lsp

import (
	"fmt"
	"math"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

func (s *Server) initialize(g *glsp.Context, p *protocol.InitializeParams) (any, error) {
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
	s.completionClient = completionClientOf(g.Params)
	s.mu.Unlock()
	if p.InitializationOptions != nil {
		lim, err := limitOptions(s.store.Limits, p.InitializationOptions)
		if err != nil {
			return nil, invalidParams("initializationOptions: %v", err)
		}
		s.store.Limits = lim
		s.log.Printf("limits: %+v", lim)
	}
	client := "unknown client"
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name
	}
	s.log.Printf("initialize from %s, roots %v", client, roots)
	return initializeResult{Capabilities: serverCapabilities{ServerCapabilities: capabilities(),
		DiagnosticProvider: &diagnosticOptions{Identifier: Name, InterFileDependencies: true, WorkspaceDiagnostics: true},
		InlayHintProvider:  true}, ServerInfo: &protocol.InitializeResultServerInfo{
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
		CompletionProvider:   &protocol.CompletionOptions{TriggerCharacters: []string{".", ":"}, ResolveProvider: ptr(true)},
		SignatureHelpProvider: &protocol.SignatureHelpOptions{
			TriggerCharacters: []string{"(", ","},
		},
		RenameProvider:                  protocol.RenameOptions{PrepareProvider: ptr(true)},
		DocumentFormattingProvider:      true,
		DocumentRangeFormattingProvider: true,
		DocumentHighlightProvider:       true,
		SelectionRangeProvider:          true,
		DocumentLinkProvider:            &protocol.DocumentLinkOptions{},
		CodeLensProvider:                &protocol.CodeLensOptions{},
		CallHierarchyProvider:           true,
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

// cancelRequest is the glsp route of $/cancelRequest; the dispatcher
// handles the notification itself (Server.cancel) before glsp sees it.
func (s *Server) cancelRequest(*glsp.Context, *protocol.CancelParams) error { return nil }

func ptr[T any](v T) *T { return &v }

// limitOptions reads the limits a client sets in initializationOptions
// over cur: maxFileSize (bytes, or a size such as "8MiB"), maxNesting,
// maxUnionMembers, maxMatchArms, maxImportDepth, maxModules and
// maxSyntaxErrors. Unknown keys are left for other settings.
func limitOptions(cur limits.Limits, raw any) (limits.Limits, error) {
	opts, ok := raw.(map[string]any)
	if !ok {
		return cur, nil
	}
	num := func(key string, dst *int) error {
		v, ok := opts[key]
		if !ok {
			return nil
		}
		f, ok := v.(float64)
		if !ok || f < 1 || f != math.Trunc(f) {
			return fmt.Errorf("%s must be a positive integer, got %v", key, v)
		}
		*dst = int(f)
		return nil
	}
	if v, ok := opts["maxFileSize"]; ok {
		switch v := v.(type) {
		case float64:
			if v < 1 {
				return cur, fmt.Errorf("maxFileSize must be positive")
			}
			cur.FileSize = int64(v)
		case string:
			n, err := limits.ParseSize(v)
			if err != nil {
				return cur, fmt.Errorf("maxFileSize: %v", err)
			}
			cur.FileSize = n
		default:
			return cur, fmt.Errorf("maxFileSize must be a number of bytes or a size such as \"8MiB\"")
		}
	}
	for key, dst := range map[string]*int{"maxNesting": &cur.Nesting, "maxUnionMembers": &cur.UnionMembers,
		"maxMatchArms": &cur.MatchArms, "maxImportDepth": &cur.ImportDepth, "maxModules": &cur.Modules, "maxSyntaxErrors": &cur.SyntaxErrors} {
		if err := num(key, dst); err != nil {
			return cur, err
		}
	}
	return cur, nil
}
