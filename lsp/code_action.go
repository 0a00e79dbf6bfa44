package lsp

import (
	"slices"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// codeAction offers a quick fix for every fix of every diagnostic under
// the requested range, and one source.fixAll action applying the first
// fix of each diagnostic in the document (skipping fixes that overlap an
// earlier one). Diagnostics come from the same memoized analysis that is
// published, for the document's current version.
func (s *Server) codeAction(g *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	r, err := s.open(g, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	span, err := r.m.Span(p.Range)
	if err != nil {
		return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
	}
	actions := []protocol.CodeAction{}
	if r.doc.Ext == "" {
		return actions, nil
	}
	res, err := r.doc.CheckContext(r.ctx, workspace{s: s}.ReadFile)
	if err != nil {
		return nil, err
	}
	files := s.files(r.doc, res.Sources)
	docChanges := s.documentChanges()
	want := func(kind protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, only := range p.Context.Only {
			if kind == only || strings.HasPrefix(string(kind), string(only)+".") {
				return true
			}
		}
		return false
	}
	ds := slices.Clone(res.Diagnostics)
	diagnostics.Sort(ds)
	if want(protocol.CodeActionKindQuickFix) {
		for _, d := range ds {
			if !mapper.Overlaps(d.Span, span) {
				continue
			}
			pd := mapper.Diagnostic(r.m, d, files, s.explainHref)
			for i, fix := range d.Fixes {
				edits, mappers, ok := mapper.TextEdits(r.m, fix.Edits, files)
				if !ok {
					continue
				}
				actions = append(actions, protocol.CodeAction{
					Title:       fix.Title,
					Kind:        ptr(protocol.CodeActionKindQuickFix),
					Diagnostics: []protocol.Diagnostic{pd},
					IsPreferred: ptr(i == 0),
					Edit:        mapper.WorkspaceEdit(edits, mappers, docChanges),
				})
			}
		}
	}
	if want(codeActionSourceFixAll) {
		var all []diagnostics.TextEdit
		type taken struct {
			path string
			span diagnostics.Span
		}
		var used []taken
		for _, d := range ds {
			if len(d.Fixes) == 0 {
				continue
			}
			fix := d.Fixes[0]
			clash := false
			for _, e := range fix.Edits {
				for _, u := range used {
					if u.path == e.Path && editsClash(u.span, e.Span) {
						clash = true
					}
				}
			}
			if clash {
				continue
			}
			for _, e := range fix.Edits {
				used = append(used, taken{e.Path, e.Span})
			}
			all = append(all, fix.Edits...)
		}
		if len(all) > 0 {
			if edits, mappers, ok := mapper.TextEdits(r.m, all, files); ok {
				actions = append(actions, protocol.CodeAction{
					Title: "Fix all auto-fixable problems",
					Kind:  ptr(codeActionSourceFixAll),
					Edit:  mapper.WorkspaceEdit(edits, mappers, docChanges),
				})
			}
		}
	}
	return actions, nil
}

// documentChanges reports whether the client accepts versioned document
// changes in workspace edits.
func (s *Server) documentChanges() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.capabilities.Workspace
	return w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.DocumentChanges != nil && *w.WorkspaceEdit.DocumentChanges
}

// codeActionSourceFixAll is LSP 3.17's kind for fix-all actions; clients of
// 3.16 match it by its "source" prefix.
const codeActionSourceFixAll protocol.CodeActionKind = "source.fixAll"

// editsClash reports whether two edits of one file cannot both apply:
// their replaced ranges overlap, or both insert at the same offset.
func editsClash(a, b diagnostics.Span) bool {
	return a.Start == b.Start || (a.Start < b.End && b.Start < a.End)
}
