package lsp

import (
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// MethodInlayHint is LSP 3.17's inlay hint request, routed by the server
// itself (glsp is 3.16), its types defined here at the wire edge.
const MethodInlayHint = "textDocument/inlayHint"

// inlayHint is 3.17's InlayHint with a string label.
type inlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Kind        int               `json:"kind,omitempty"` // 1 type, 2 parameter
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

// inlayHints answers textDocument/inlayHint from the language's
// features.InlayHinter (Harn: inferred types of untyped bindings and
// closure parameters).
func (s *Server) inlayHints(g *glsp.Context) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := json.Unmarshal(g.Params, &p); err != nil || p.TextDocument.URI == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "invalid params for " + MethodInlayHint + ": want {\"textDocument\": {\"uri\": ...}, \"range\": ...}"}
	}
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []inlayHint{}
	ih, ok := r.features.(features.InlayHinter)
	if !ok || r.doc.Dropped() {
		return out, nil
	}
	start, err := r.m.Offset(p.Range.Start)
	if err != nil {
		return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
	}
	end, err := r.m.Offset(p.Range.End)
	if err != nil {
		return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
	}
	hints, err := ih.InlayHints(r.ctx, r.snap, diagnostics.Span{Start: start, End: end})
	if err != nil {
		return nil, err
	}
	for _, h := range hints {
		k := 0
		switch h.Kind {
		case "type":
			k = 1
		case "parameter":
			k = 2
		}
		out = append(out, inlayHint{Position: r.m.Position(h.Offset), Label: h.Label, Kind: k, PaddingLeft: h.PaddingLeft})
	}
	return out, nil
}
