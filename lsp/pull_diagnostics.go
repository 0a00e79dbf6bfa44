package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// MethodDiagnostic is LSP 3.17's pull diagnostics request, which glsp's
// 3.16 handler lacks: the server routes it itself (handle), with the few
// 3.17 types it needs defined here, at the wire edge.
const MethodDiagnostic = "textDocument/diagnostic"

// diagnosticOptions is 3.17's DiagnosticOptions.
type diagnosticOptions struct {
	Identifier            string `json:"identifier,omitempty"`
	InterFileDependencies bool   `json:"interFileDependencies"`
	WorkspaceDiagnostics  bool   `json:"workspaceDiagnostics"`
}

// documentDiagnosticReport is 3.17's full or unchanged document report.
type documentDiagnosticReport struct {
	Kind     string                `json:"kind"` // "full" | "unchanged"
	ResultID string                `json:"resultId,omitempty"`
	Items    []protocol.Diagnostic `json:"items,omitempty"`
}

// serverCapabilities adds 3.17's diagnosticProvider to glsp's 3.16
// capabilities.
type serverCapabilities struct {
	protocol.ServerCapabilities
	DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider,omitempty"`
	InlayHintProvider  bool               `json:"inlayHintProvider,omitempty"`
}

// initializeResult is the initialize result with serverCapabilities.
type initializeResult struct {
	Capabilities serverCapabilities                   `json:"capabilities"`
	ServerInfo   *protocol.InitializeResultServerInfo `json:"serverInfo,omitempty"`
}

// pullDiagnostics answers textDocument/diagnostic with the diagnostics
// of the document's current version: the same check, computed at most
// once per version and shared with the published diagnostics. The result
// id is a digest of the items, so a client that sends it back as
// previousResultId gets "unchanged" while they are the same (including
// when an imported module's change left them as they were).
func (s *Server) pullDiagnostics(g *glsp.Context) (any, error) {
	var p struct {
		TextDocument     protocol.TextDocumentIdentifier `json:"textDocument"`
		PreviousResultID string                          `json:"previousResultId"`
	}
	if err := json.Unmarshal(g.Params, &p); err != nil || p.TextDocument.URI == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "invalid params for " + MethodDiagnostic + ": want {\"textDocument\": {\"uri\": ...}}"}
	}
	d := s.document(g, p.TextDocument.URI)
	if d == nil {
		return nil, invalidParams("document %s is not open", p.TextDocument.URI)
	}
	st := s.state(g)
	res, err := d.CheckContext(st.ctx, workspace{s: s, ctx: st.ctx, docs: st.docs}.ReadFile)
	if err != nil {
		return nil, err
	}
	items := s.publishParams(d, res.Diagnostics, res.Sources).Diagnostics
	data, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	id := hex.EncodeToString(sum[:8])
	if p.PreviousResultID == id {
		return documentDiagnosticReport{Kind: "unchanged", ResultID: id}, nil
	}
	if items == nil {
		items = []protocol.Diagnostic{}
	}
	return documentDiagnosticReport{Kind: "full", ResultID: id, Items: items}, nil
}
