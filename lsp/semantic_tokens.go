package lsp

import (
	"context"
	"slices"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/mapper"
)

func (s *Server) semanticTokensFull(_ *glsp.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	r, err := s.open(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	toks, err := r.features.SemanticTokens(context.Background(), r.snap)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: encodeTokens(r.m, toks)}, nil
}

// encodeTokens produces the protocol's relative encoding: for each token,
// line delta, start delta (UTF-16, relative to the previous token on the
// same line), length, type index and modifier bits. Tokens whose type is
// not in the legend, that span lines, or that overlap a previous token are
// dropped.
func encodeTokens(m *mapper.Mapper, toks []features.Token) []protocol.UInteger {
	data := []protocol.UInteger{}
	var prevLine, prevChar protocol.UInteger
	prevEnd := -1
	for _, t := range toks {
		ti := slices.Index(features.TokenTypes, t.Type)
		if ti < 0 || t.Span.Len() <= 0 || t.Span.Start < prevEnd {
			continue
		}
		start, end := m.Position(t.Span.Start), m.Position(t.Span.End)
		if start.Line != end.Line {
			continue
		}
		var mods protocol.UInteger
		for _, mod := range t.Modifiers {
			if i := slices.Index(features.TokenModifiers, mod); i >= 0 {
				mods |= 1 << i
			}
		}
		dl := start.Line - prevLine
		dc := start.Character
		if dl == 0 {
			dc -= prevChar
		}
		data = append(data, dl, dc, end.Character-start.Character, protocol.UInteger(ti), mods)
		prevLine, prevChar, prevEnd = start.Line, start.Character, t.Span.End
	}
	return data
}
