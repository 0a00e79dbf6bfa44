package cache

import (
	"bytes"

	"github.com/harnlang/harn-check/diagnostics"
)

// Point is a row and a byte column, both 0-based, as tree-sitter counts
// them.
type Point struct {
	Row    uint
	Column uint
}

// Edit describes one replacement of a byte range in the terms of
// tree-sitter's InputEdit: the replaced range [StartByte, OldEndByte) of the
// old text became [StartByte, NewEndByte) of the new text. The points are
// the same offsets as rows and byte columns, the old ones measured in the
// old text and NewEndPoint in the new text.
type Edit struct {
	StartByte, OldEndByte, NewEndByte    uint
	StartPoint, OldEndPoint, NewEndPoint Point
}

// NewEdit computes the Edit that replaces old[start:end] with newText,
// where lines indexes old. Offsets are clamped to the text and end is
// raised to start when it lies before it.
func NewEdit(lines *diagnostics.LineIndex, oldLen, start, end int, newText []byte) Edit {
	start = max(0, min(start, oldLen))
	end = max(start, min(end, oldLen))
	sp := treePoint(lines, start)
	ep := treePoint(lines, end)
	e := Edit{
		StartByte:   uint(start),
		OldEndByte:  uint(end),
		NewEndByte:  uint(start + len(newText)),
		StartPoint:  Point{Row: uint(sp.Line), Column: uint(sp.Column)},
		OldEndPoint: Point{Row: uint(ep.Line), Column: uint(ep.Column)},
	}
	e.NewEndPoint = advance(e.StartPoint, newText)
	return e
}

// treePoint returns the tree-sitter point of offset: rows count "\n" only,
// while the line index also breaks lines at a lone "\r" (as the protocol
// does). Without a lone CR in the text the two agree.
func treePoint(lines *diagnostics.LineIndex, offset int) diagnostics.Position {
	if !lines.HasLoneCR() {
		return lines.ByteColumn(offset)
	}
	src := lines.Source()
	offset = max(0, min(offset, len(src)))
	row := bytes.Count(src[:offset], []byte{'\n'})
	return diagnostics.Position{Line: row, Column: offset - (bytes.LastIndexByte(src[:offset], '\n') + 1)}
}

// advance returns the point reached after inserting text at p.
func advance(p Point, text []byte) Point {
	nl := bytes.Count(text, []byte{'\n'})
	if nl == 0 {
		return Point{Row: p.Row, Column: p.Column + uint(len(text))}
	}
	return Point{Row: p.Row + uint(nl), Column: uint(len(text) - bytes.LastIndexByte(text, '\n') - 1)}
}
