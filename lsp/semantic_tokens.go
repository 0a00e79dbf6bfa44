package lsp

import (
	"slices"
	"strconv"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/mapper"
)

func (s *Server) semanticTokensFull(g *glsp.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	data, err := s.tokenData(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	id := s.tokens.remember(p.TextDocument.URI, data)
	return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
}

// semanticTokensDelta answers with the edit turning the tokens of
// previousResultId into the current ones (one edit: the changed middle
// between a common prefix and suffix), or with full tokens when that
// result is no longer known.
func (s *Server) semanticTokensDelta(g *glsp.Context, p *protocol.SemanticTokensDeltaParams) (any, error) {
	data, err := s.tokenData(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	prev, known := s.tokens.lookup(p.TextDocument.URI, p.PreviousResultID)
	id := s.tokens.remember(p.TextDocument.URI, data)
	if !known {
		return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
	}
	return &protocol.SemanticTokensDelta{ResultId: &id, Edits: tokenEdits(prev, data)}, nil
}

func (s *Server) tokenData(g *glsp.Context, uri protocol.DocumentUri) ([]protocol.UInteger, error) {
	r, err := s.open(g, uri)
	if err != nil {
		return nil, err
	}
	toks, err := r.features.SemanticTokens(r.ctx, r.snap)
	if err != nil {
		return nil, err
	}
	return encodeTokens(r.m, toks), nil
}

// tokenEdits returns the edits turning old into new: none when equal,
// else one replacing the differing middle.
func tokenEdits(old, new []protocol.UInteger) []protocol.SemanticTokensEdit {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	if pre == len(old) && pre == len(new) {
		return []protocol.SemanticTokensEdit{}
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	return []protocol.SemanticTokensEdit{{
		Start:       protocol.UInteger(pre),
		DeleteCount: protocol.UInteger(len(old) - pre - suf),
		Data:        slices.Clone(new[pre : len(new)-suf]),
	}}
}

// tokenResults remembers the last semantic tokens sent per document, for
// delta requests.
type tokenResults struct {
	mu   sync.Mutex
	next int
	last map[protocol.DocumentUri]tokenResult
}

type tokenResult struct {
	id   string
	data []protocol.UInteger
}

func (t *tokenResults) remember(uri protocol.DocumentUri, data []protocol.UInteger) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	id := strconv.Itoa(t.next)
	if t.last == nil {
		t.last = map[protocol.DocumentUri]tokenResult{}
	}
	t.last[uri] = tokenResult{id, data}
	return id
}

func (t *tokenResults) lookup(uri protocol.DocumentUri, id string) ([]protocol.UInteger, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.last[uri]
	return r.data, ok && r.id == id
}

func (t *tokenResults) forget(uri protocol.DocumentUri) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.last, uri)
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
