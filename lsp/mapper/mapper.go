// Package mapper converts between the server's internal terms (UTF-8 byte
// offsets and spans, diagnostics.Diagnostic, diagnostics.TextEdit) and the
// protocol's (0-based lines with UTF-16 columns, glsp protocol types). It
// is the one place where positions cross that boundary.
//
// Invariants: conversions are pure; the package reads no files and holds
// no state beyond the line index it is given.
package mapper

import (
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
)

// Mapper converts positions of one file.
type Mapper struct {
	// URI identifies the file on the wire.
	URI protocol.DocumentUri
	// Lines indexes the file's content.
	Lines *diagnostics.LineIndex
	// Version is the open document's version; nil for a file that is not
	// open in the editor.
	Version *int32
}

// New returns a mapper for uri with content text.
func New(uri protocol.DocumentUri, text []byte, version *int32) *Mapper {
	return &Mapper{URI: uri, Lines: diagnostics.NewLineIndex(text), Version: version}
}

// Position converts a byte offset to a protocol position.
func (m *Mapper) Position(offset int) protocol.Position {
	p := m.Lines.UTF16Column(offset)
	return protocol.Position{Line: protocol.UInteger(p.Line), Character: protocol.UInteger(p.Column)}
}

// Range converts a byte span to a protocol range.
func (m *Mapper) Range(s diagnostics.Span) protocol.Range {
	return protocol.Range{Start: m.Position(s.Start), End: m.Position(max(s.Start, s.End))}
}

// Location converts a byte span to a protocol location.
func (m *Mapper) Location(s diagnostics.Span) protocol.Location {
	return protocol.Location{URI: m.URI, Range: m.Range(s)}
}

// Offset converts a request position to a byte offset. A column past the
// end of its line clamps to the line end, as the protocol asks; a line
// past the end of the document is an error.
func (m *Mapper) Offset(p protocol.Position) (int, error) {
	if int(p.Line) >= m.Lines.LineCount() {
		return 0, fmt.Errorf("position %d:%d is beyond the end of the document (%d lines)", p.Line, p.Character, m.Lines.LineCount())
	}
	return m.Lines.OffsetFromUTF16(diagnostics.Position{Line: int(p.Line), Column: int(p.Character)}), nil
}

// Span converts a request range to a byte span, with Offset's rules; a
// range whose end precedes its start is an error.
func (m *Mapper) Span(r protocol.Range) (diagnostics.Span, error) {
	a, err := m.Offset(r.Start)
	if err != nil {
		return diagnostics.Span{}, err
	}
	b, err := m.Offset(r.End)
	if err != nil {
		return diagnostics.Span{}, err
	}
	if b < a {
		return diagnostics.Span{}, fmt.Errorf("range end %d:%d precedes its start %d:%d", r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return diagnostics.Span{Start: a, End: b}, nil
}
