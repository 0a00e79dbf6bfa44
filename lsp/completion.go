package lsp

import (
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
)

// A completion list on an empty word offers every name in scope and the
// whole builtin table (about 850 items for Harn). What the list costs is
// its size: the server encodes it, the client decodes it, on every
// request. So an item carries only what a client needs to show and insert
// it, and what the client says it can fetch later (documentation, detail:
// resolveSupport) comes with completionItem/resolve; the range every item
// replaces, and the data resolve needs, are said once for the list when
// the client understands list defaults (LSP 3.17 itemDefaults).

// completionClient is what the client said, in initialize, it does with
// completion items.
type completionClient struct {
	// lazyDoc, lazyDetail: the client resolves an item's documentation,
	// detail, when it shows them.
	lazyDoc, lazyDetail bool
	// defaultRange, defaultData: the client applies a list's
	// itemDefaults.editRange, itemDefaults.data to its items.
	defaultRange, defaultData bool
}

// completionClientOf reads the completion capabilities of initialize's
// params; glsp's 3.16 types lack completionList.
func completionClientOf(params json.RawMessage) completionClient {
	var p struct {
		Capabilities struct {
			TextDocument struct {
				Completion struct {
					CompletionItem struct {
						ResolveSupport struct {
							Properties []string `json:"properties"`
						} `json:"resolveSupport"`
					} `json:"completionItem"`
					CompletionList struct {
						ItemDefaults []string `json:"itemDefaults"`
					} `json:"completionList"`
				} `json:"completion"`
			} `json:"textDocument"`
		} `json:"capabilities"`
	}
	var c completionClient
	if json.Unmarshal(params, &p) != nil {
		return c
	}
	comp := p.Capabilities.TextDocument.Completion
	for _, prop := range comp.CompletionItem.ResolveSupport.Properties {
		switch prop {
		case "documentation":
			c.lazyDoc = true
		case "detail":
			c.lazyDetail = true
		}
	}
	for _, d := range comp.CompletionList.ItemDefaults {
		switch d {
		case "editRange":
			c.defaultRange = true
		case "data":
			c.defaultData = true
		}
	}
	return c
}

func (s *Server) completion(g *glsp.Context, p *protocol.CompletionParams) (any, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	kept, gen, ok := s.completions.lookup(r.doc, off)
	if ok {
		if kept.token != 0 {
			s.resolvable.given(kept.token, kept.items)
		}
		return kept.data, nil
	}
	items, err := r.features.Completion(r.ctx, r.snap, off)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	client := s.completionClient
	s.mu.Unlock()
	token := 0
	if client.lazyDoc || client.lazyDetail {
		token = s.resolvable.keep(items)
	}
	data := encodeCompletionList(client, r.m.Range, items, token)
	if r.ctx.Err() == nil {
		s.completions.remember(gen, completionReply{doc: r.doc, offset: off, data: data, token: token, items: items})
	}
	return data, nil
}

// completionItemResolve fills in what the list left out of an item
// (completionClient): the item's data names the list it came from.
func (s *Server) completionItemResolve(_ *glsp.Context, it *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	token, ok := it.Data.(float64)
	if !ok {
		return it, nil
	}
	items := s.resolvable.list(int(token))
	for _, full := range items {
		if full.Label != it.Label || it.Kind != nil && protocol.CompletionItemKind(full.Kind) != *it.Kind {
			continue
		}
		if full.Detail != "" {
			it.Detail = ptr(full.Detail)
		}
		if full.Documentation != "" {
			it.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: full.Documentation}
		}
		break
	}
	return it, nil
}

// encodeCompletionList encodes a CompletionList of items for client, as
// encoding/json would encode protocol.CompletionList (the same fields in
// the same order, strings escaped alike) less what client resolves
// later; token, when not 0, is the data resolve is sent with.
func encodeCompletionList(client completionClient, toRange func(diagnostics.Span) protocol.Range, items []features.CompletionItem, token int) json.RawMessage {
	// One range for the whole list when every item replaces the same
	// word and the client takes a default range.
	shared := client.defaultRange && len(items) > 0 && items[0].Replace != (diagnostics.Span{})
	for _, it := range items {
		shared = shared && it.Replace == items[0].Replace
	}
	var rng []byte
	var lastSpan diagnostics.Span
	rangeOf := func(sp diagnostics.Span) []byte {
		if rng == nil || sp != lastSpan {
			rng, lastSpan = appendRange(rng[:0], toRange(sp)), sp
		}
		return rng
	}
	var tok []byte
	if token != 0 {
		tok = strconv.AppendInt(nil, int64(token), 10)
	}
	b := make([]byte, 0, 64+48*len(items))
	b = append(b, `{"isIncomplete":false`...)
	if shared || token != 0 && client.defaultData {
		b = append(b, `,"itemDefaults":{`...)
		if shared {
			b = append(b, `"editRange":`...)
			b = append(b, rangeOf(items[0].Replace)...)
		}
		if token != 0 && client.defaultData {
			if shared {
				b = append(b, ',')
			}
			b = append(b, `"data":`...)
			b = append(b, tok...)
		}
		b = append(b, '}')
	}
	b = append(b, `,"items":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"label":`...)
		b = appendJSONString(b, it.Label)
		b = append(b, `,"kind":`...)
		b = strconv.AppendInt(b, int64(it.Kind), 10)
		if it.Detail != "" && !client.lazyDetail {
			b = append(b, `,"detail":`...)
			b = appendJSONString(b, it.Detail)
		}
		if it.Documentation != "" && !client.lazyDoc {
			b = append(b, `,"documentation":{"kind":"markdown","value":`...)
			b = appendJSONString(b, it.Documentation)
			b = append(b, '}')
		}
		text := it.Label
		if it.InsertText != "" {
			text = it.InsertText
		}
		switch {
		case shared:
			// The list's editRange with the label, or textEditText.
		case it.Replace == (diagnostics.Span{}) && it.InsertText != "":
			b = append(b, `,"insertText":`...)
			b = appendJSONString(b, text)
		}
		if it.Snippet {
			b = append(b, `,"insertTextFormat":2`...)
		}
		switch {
		case shared:
			if it.InsertText != "" {
				b = append(b, `,"textEditText":`...)
				b = appendJSONString(b, text)
			}
		case it.Replace != (diagnostics.Span{}):
			b = append(b, `,"textEdit":{"range":`...)
			b = append(b, rangeOf(it.Replace)...)
			b = append(b, `,"newText":`...)
			b = appendJSONString(b, text)
			b = append(b, '}')
		}
		if token != 0 && !client.defaultData {
			b = append(b, `,"data":`...)
			b = append(b, tok...)
		}
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	return b
}

// appendRange appends r as encoding/json encodes a protocol.Range.
func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Character), 10)
	b = append(b, `},"end":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.End.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.End.Character), 10)
	return append(b, "}}"...)
}

// appendJSONString appends s as encoding/json encodes a string: a name
// or keyword as it is, anything needing an escape (quotes, control
// characters, <, > and &, invalid UTF-8, U+2028 and U+2029) through
// encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			q, err := json.Marshal(s)
			if err != nil {
				break // not reached: a string always encodes
			}
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// resolvableLists keeps the last completion lists whose items the client
// may resolve, by token. A client resolves items of the list it shows,
// which stays on screen while the user types on (the document changes),
// so the lists outlive the version they were made for; the few most
// recently given are kept.
type resolvableLists struct {
	mu   sync.Mutex
	next int
	// recent are the lists, least recently given first.
	recent []resolvableList
}

type resolvableList struct {
	token int
	items []features.CompletionItem
}

// keptLists is how many lists resolvableLists keeps.
const keptLists = 8

// keep stores items and returns their token (never 0).
func (r *resolvableLists) keep(items []features.CompletionItem) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.add(resolvableList{token: r.next, items: items})
	return r.next
}

// given marks the list of token as given again (a reply reused), keeping
// it, or storing it again, as the most recent.
func (r *resolvableLists) given(token int, items []features.CompletionItem) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, l := range r.recent {
		if l.token == token {
			r.recent = append(r.recent[:i], r.recent[i+1:]...)
			break
		}
	}
	r.add(resolvableList{token: token, items: items})
}

func (r *resolvableLists) add(l resolvableList) {
	if len(r.recent) == keptLists {
		r.recent = append(r.recent[:0], r.recent[1:]...)
	}
	r.recent = append(r.recent, l)
}

// list returns the items of token, nil when they are no longer kept.
func (r *resolvableLists) list(token int) []features.CompletionItem {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.recent {
		if l.token == token {
			return l.items
		}
	}
	return nil
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
	// token is the resolvableLists token of items, 0 when the client
	// resolves nothing.
	token int
	items []features.CompletionItem
}

// lookup returns the kept reply for offset in doc, or the generation to
// remember the one computed instead with.
func (c *completionReplies) lookup(doc *cache.Document, offset int) (completionReply, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.last[doc.URI]
	if !ok || r.doc != doc || r.offset != offset {
		return completionReply{}, c.gen, false
	}
	return r, c.gen, true
}

// remember keeps r as the reply for its place, unless the replies were
// forgotten since generation gen.
func (c *completionReplies) remember(gen int, r completionReply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.last == nil {
		c.last = map[string]completionReply{}
	}
	c.last[r.doc.URI] = r
}

// forget drops every kept reply.
func (c *completionReplies) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = nil
	c.gen++
}
