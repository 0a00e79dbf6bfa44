package mapper

import (
	"cmp"
	"slices"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
)

// Files finds the mapper of a file other diagnostics or edits point into,
// by the path the analyzer named it with. It returns nil when the file's
// content is unavailable.
type Files func(path string) *Mapper

// Source is the "source" every published diagnostic carries.
const Source = "harn-check"

// Severity converts a severity.
func Severity(s diagnostics.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diagnostics.Warning:
		return protocol.DiagnosticSeverityWarning
	case diagnostics.Info:
		return protocol.DiagnosticSeverityInformation
	case diagnostics.Hint:
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityError
}

// Diagnostic converts d, a diagnostic about m's file. Related spans in
// other files are resolved through files and dropped when their content is
// unknown. explain returns the href of a code's explanation page ("" for
// none).
func Diagnostic(m *Mapper, d diagnostics.Diagnostic, files Files, explain func(code string) string) protocol.Diagnostic {
	sev := Severity(d.Severity)
	src := Source
	msg := d.Message
	if d.Help != "" {
		msg += "\nhelp: " + d.Help
	}
	out := protocol.Diagnostic{Range: m.Range(d.Span), Severity: &sev, Source: &src, Message: msg}
	if d.Code != "" {
		out.Code = &protocol.IntegerOrString{Value: d.Code}
		if explain != nil {
			if href := explain(d.Code); href != "" {
				out.CodeDescription = &protocol.CodeDescription{HRef: href}
			}
		}
	}
	for _, r := range d.Related {
		rm := m
		if r.Path != "" && r.Path != d.Path {
			rm = files(r.Path)
		}
		if rm == nil {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: rm.Location(r.Span), Message: r.Message,
		})
	}
	return out
}

// TextEdits converts the edits of a fix to per-file protocol edits, keyed
// by URI, each file's edits in document order. It returns false when an
// edit points into a file whose content is unknown.
func TextEdits(m *Mapper, edits []diagnostics.TextEdit, files Files) (map[protocol.DocumentUri][]protocol.TextEdit, map[protocol.DocumentUri]*Mapper, bool) {
	out := map[protocol.DocumentUri][]protocol.TextEdit{}
	mappers := map[protocol.DocumentUri]*Mapper{}
	type located struct {
		span diagnostics.Span
		edit protocol.TextEdit
	}
	spans := map[protocol.DocumentUri][]located{}
	for _, e := range edits {
		em := m
		if e.Path != "" {
			em = files(e.Path)
		}
		if em == nil {
			return nil, nil, false
		}
		mappers[em.URI] = em
		spans[em.URI] = append(spans[em.URI], located{e.Span, protocol.TextEdit{Range: em.Range(e.Span), NewText: e.NewText}})
	}
	for uri, ls := range spans {
		slices.SortStableFunc(ls, func(a, b located) int {
			return cmp.Or(cmp.Compare(a.span.Start, b.span.Start), cmp.Compare(a.span.End, b.span.End))
		})
		for _, l := range ls {
			out[uri] = append(out[uri], l.edit)
		}
	}
	return out, mappers, true
}

// WorkspaceEdit builds a workspace edit from per-file edits. With
// documentChanges (the client supports them) each file becomes a
// TextDocumentEdit naming the version the edits apply to, so a client
// rejects an edit computed for an older text; otherwise the plain
// "changes" map is used.
func WorkspaceEdit(edits map[protocol.DocumentUri][]protocol.TextEdit, mappers map[protocol.DocumentUri]*Mapper, documentChanges bool) *protocol.WorkspaceEdit {
	if !documentChanges {
		return &protocol.WorkspaceEdit{Changes: edits}
	}
	uris := make([]protocol.DocumentUri, 0, len(edits))
	for uri := range edits {
		uris = append(uris, uri)
	}
	slices.Sort(uris)
	we := &protocol.WorkspaceEdit{}
	for _, uri := range uris {
		var es []any
		for _, e := range edits[uri] {
			es = append(es, e)
		}
		var version *protocol.Integer
		if m := mappers[uri]; m != nil && m.Version != nil {
			v := *m.Version
			version = &v
		}
		we.DocumentChanges = append(we.DocumentChanges, protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version,
			},
			Edits: es,
		})
	}
	return we
}

// Overlaps reports whether a and b share a byte or either is empty and
// touches the other, the rule code actions use to find the diagnostics at
// a cursor.
func Overlaps(a, b diagnostics.Span) bool {
	if a.Len() == 0 || b.Len() == 0 {
		return a.Start <= b.End && b.Start <= a.End
	}
	return a.Start < b.End && b.Start < a.End
}
