package lsp

import (
	"errors"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// formatting answers textDocument/formatting with the edits that format
// the document: one edit per run of whitespace or separators that changes
// (format.Edits), not one replacement of the whole text, so the editor
// keeps cursors, marks and folds. Harn's lines break at the project's
// `[fmt] line_width` (fmtOptions); Leia takes the client's tab size and
// insertSpaces. A document with syntax errors is not formatted: the
// request fails with a message saying so.
func (s *Server) formatting(g *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	d := s.document(g, p.TextDocument.URI)
	if d == nil {
		return nil, invalidParams("document %s is not open", p.TextDocument.URI)
	}
	if r := d.Refused(); r != nil {
		return nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: "not formatted: " + r.Message}
	}
	edits, err := s.formatEdits(d.Ext, d.Text, s.fmtOptions(d, p.Options))
	if err != nil {
		return nil, err
	}
	return textEdits(s.mapperOf(d), edits), nil
}

// rangeFormatting answers textDocument/rangeFormatting: the document is
// formatted as a whole (layout depends on what surrounds a line) and the
// edits that touch the range, widened to whole lines, are returned. Each
// edit changes one run of whitespace or separators, so any subset of them
// leaves the same program.
func (s *Server) rangeFormatting(g *glsp.Context, p *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	d := s.document(g, p.TextDocument.URI)
	if d == nil {
		return nil, invalidParams("document %s is not open", p.TextDocument.URI)
	}
	if r := d.Refused(); r != nil {
		return nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: "not formatted: " + r.Message}
	}
	m := s.mapperOf(d)
	span, err := m.Span(p.Range)
	if err != nil {
		return nil, invalidParams("%s: %v", p.TextDocument.URI, err)
	}
	edits, err := s.formatEdits(d.Ext, d.Text, s.fmtOptions(d, p.Options))
	if err != nil {
		return nil, err
	}
	start := m.Lines.LineStart(m.Lines.Line(span.Start))
	end := span.End
	if end == span.Start || d.Text[end-1] != '\n' {
		// Up to the end of the range's last line.
		end = len(d.Text)
		if l := m.Lines.Line(span.End) + 1; l < m.Lines.LineCount() {
			end = m.Lines.LineStart(l)
		}
	}
	return textEdits(m, format.InRange(edits, start, end)), nil
}

// fmtOptions are the formatting options of a document: the width of
// the project's harn.toml (`[fmt] line_width`, read as the command line
// reads it, with unsaved buffers seen) and the client's tab preferences.
func (s *Server) fmtOptions(d *cache.Document, opts protocol.FormattingOptions) format.Options {
	o := format.Options{LineWidth: driver.ProjectFor(workspace{s: s}.ReadFile, filepath.Dir(d.CheckPath())).LineWidth()}
	if v, ok := opts[protocol.FormattingOptionTabSize].(float64); ok && v > 0 && v <= 16 {
		o.TabSize = int(v)
	}
	if v, ok := opts[protocol.FormattingOptionInsertSpaces].(bool); ok && !v {
		o.UseTabs = true
	}
	return o
}

// formatEdits formats text as the language ext and returns the edits; a
// document in a language without a formatter gets none.
func (s *Server) formatEdits(ext string, text []byte, o format.Options) ([]format.Edit, error) {
	l := s.formats[ext]
	if l == nil {
		return nil, nil
	}
	out, err := l.Format(text, o)
	if errors.Is(err, format.ErrSyntax) {
		return nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: "not formatted: the document has syntax errors (" + err.Error() + ")"}
	}
	if err == nil {
		err = l.Verify(text, out)
	}
	if err != nil {
		return nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: err.Error()}
	}
	return format.Edits(text, out), nil
}

// textEdits converts byte edits to protocol edits.
func textEdits(m *mapper.Mapper, edits []format.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: m.Range(diagnostics.Span{Start: e.Start, End: e.End}), NewText: e.New})
	}
	return out
}
