package lsp

import (
	"errors"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/cache"
)

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	d := s.store.Open(p.TextDocument.URI, p.TextDocument.LanguageID, p.TextDocument.Version, p.TextDocument.Text)
	s.completions.forget()
	if d.Ext == "" {
		s.log.Printf("opened %s (languageId %q): no known language, not analysed", d.URI, d.LanguageID)
		return nil
	}
	s.diags.schedule(d.URI)
	s.diags.dependents(d.URI)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	changes := make([]cache.Change, 0, len(p.ContentChanges))
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEvent:
			r := &cache.Range{
				Start: diagnostics.Position{Line: int(c.Range.Start.Line), Column: int(c.Range.Start.Character)},
				End:   diagnostics.Position{Line: int(c.Range.End.Line), Column: int(c.Range.End.Character)},
			}
			changes = append(changes, cache.Change{Range: r, Text: c.Text})
		case protocol.TextDocumentContentChangeEventWhole:
			changes = append(changes, cache.Change{Text: c.Text})
		}
	}
	d, err := s.store.Change(p.TextDocument.URI, p.TextDocument.Version, changes)
	s.completions.forget()
	if errors.Is(err, cache.ErrNotOpen) {
		s.log.Printf("ignored didChange of %s: the document is not open", p.TextDocument.URI)
		return nil
	}
	if err != nil {
		// A notification cannot be answered; the document keeps its
		// previous text and the client is told through the log.
		s.log.Printf("rejected didChange of %s version %d: %v", p.TextDocument.URI, p.TextDocument.Version, err)
		s.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{
			Type: protocol.MessageTypeError, Message: "leia-lsp: rejected change of " + p.TextDocument.URI + ": " + err.Error(),
		})
		return nil
	}
	if d.Ext != "" {
		s.diags.schedule(d.URI)
	}
	s.diags.dependents(d.URI)
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	if err := s.store.Close(p.TextDocument.URI); err != nil {
		s.log.Printf("ignored didClose of %s: the document is not open", p.TextDocument.URI)
		return nil
	}
	s.completions.forget()
	s.diags.clear(p.TextDocument.URI)
	s.diags.dependents(p.TextDocument.URI)
	s.tokens.forget(p.TextDocument.URI)
	return nil
}

// didSave changes nothing: the server analyses the editor's text, which a
// save does not alter.
func (s *Server) didSave(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil }
