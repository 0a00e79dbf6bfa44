package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
)

func (s *Server) completion(g *glsp.Context, p *protocol.CompletionParams) (any, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	items, err := r.features.Completion(r.ctx, r.snap, off)
	if err != nil {
		return nil, err
	}
	out := protocol.CompletionList{Items: []protocol.CompletionItem{}}
	for _, it := range items {
		ci := protocol.CompletionItem{Label: it.Label, Kind: ptr(protocol.CompletionItemKind(it.Kind))}
		if it.Detail != "" {
			ci.Detail = ptr(it.Detail)
		}
		if it.Documentation != "" {
			ci.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: it.Documentation}
		}
		text := it.Label
		if it.InsertText != "" {
			text = it.InsertText
		}
		if it.Snippet {
			ci.InsertTextFormat = ptr(protocol.InsertTextFormatSnippet)
		}
		if it.Replace != (diagnostics.Span{}) {
			ci.TextEdit = protocol.TextEdit{Range: r.m.Range(it.Replace), NewText: text}
		} else if it.InsertText != "" {
			ci.InsertText = ptr(text)
		}
		out.Items = append(out.Items, ci)
	}
	return out, nil
}
