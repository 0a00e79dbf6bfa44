package lsp

import (
	"encoding/json"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/cache"
)

func (s *Server) completion(g *glsp.Context, p *protocol.CompletionParams) (any, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	data, gen, ok := s.completions.lookup(r.doc, off)
	if ok {
		return data, nil
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
	data, err = json.Marshal(out)
	if err != nil {
		return nil, err
	}
	if r.ctx.Err() == nil {
		s.completions.remember(gen, r.doc, off, data)
	}
	return data, nil
}

// completionReplies keeps each document's last completion reply, encoded
// once: a request for the same place in the same version (a client
// asking again, or re-triggering completion without typing) is answered
// with it. Any change to an open document forgets them all, since a
// list may name what other documents declare.
type completionReplies struct {
	mu   sync.Mutex
	last map[string]completionReply
	// gen counts the forgets: a reply computed across one is not kept.
	gen int
}

type completionReply struct {
	// doc is the version the reply is of (a version is immutable).
	doc    *cache.Document
	offset int
	data   json.RawMessage
}

// lookup returns the kept reply for offset in doc, or the generation to
// remember the one computed instead with.
func (c *completionReplies) lookup(doc *cache.Document, offset int) (json.RawMessage, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.last[doc.URI]
	if !ok || r.doc != doc || r.offset != offset {
		return nil, c.gen, false
	}
	return r.data, c.gen, true
}

// remember keeps data as the reply for offset in doc, unless the replies
// were forgotten since generation gen.
func (c *completionReplies) remember(gen int, doc *cache.Document, offset int, data json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.last == nil {
		c.last = map[string]completionReply{}
	}
	c.last[doc.URI] = completionReply{doc: doc, offset: offset, data: data}
}

// forget drops every kept reply.
func (c *completionReplies) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = nil
	c.gen++
}
