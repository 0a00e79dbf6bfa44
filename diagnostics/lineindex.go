package diagnostics

import (
	"bytes"
	"sort"
	"sync"
	"unicode/utf8"
)

// LineIndex converts byte offsets of one file into line/column positions
// and back. A line ends with "\n", "\r\n" or a lone "\r", the three line
// terminators of the Language Server Protocol (and of the Harn and Leia
// scanners); the terminator is not part of the line's text. Columns can be
// counted in UTF-8 bytes, runes or UTF-16 code units; all are 0-based
// internally and the *1 accessors add one for human-facing output.
type LineIndex struct {
	src []byte
	// starts[i] is the byte offset where line i (0-based) begins.
	starts []int
	// loneCR is set when a "\r" not followed by "\n" ends a line.
	loneCR bool

	// utf16Starts[i] is the number of UTF-16 units before line i, built
	// on the first UTF16Offset call.
	utf16Once   sync.Once
	utf16Starts []int
}

// NewLineIndex indexes src. It keeps a reference to src.
func NewLineIndex(src []byte) *LineIndex {
	if bytes.IndexByte(src, '\r') >= 0 {
		return newLineIndexCR(src)
	}
	// Only "\n" ends lines: counted, then found, at memory speed (a
	// document of the editor is indexed at every version).
	starts := make([]int, 1, bytes.Count(src, newline)+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &LineIndex{src: src, starts: starts}
}

var newline = []byte{'\n'}

// newLineIndexCR is NewLineIndex for a text holding a "\r": byte by byte,
// a lone "\r" ending a line too.
func newLineIndexCR(src []byte) *LineIndex {
	starts := []int{0}
	loneCR := false
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		} else if b == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			starts = append(starts, i+1)
			loneCR = true
		}
	}
	return &LineIndex{src: src, starts: starts, loneCR: loneCR}
}

// HasLoneCR reports whether a "\r" that is not part of "\r\n" ends a line
// of the source (old Mac line endings): tools that count lines by "\n"
// alone, such as tree-sitter's points, then number lines differently.
func (x *LineIndex) HasLoneCR() bool { return x.loneCR }

// Source returns the indexed text.
func (x *LineIndex) Source() []byte { return x.src }

// LineCount returns the number of lines; a trailing newline opens an empty
// last line.
func (x *LineIndex) LineCount() int { return len(x.starts) }

// clamp keeps offset within [0, len(src)].
func (x *LineIndex) clamp(offset int) int {
	return max(0, min(offset, len(x.src)))
}

// Line returns the 0-based line containing offset. Offsets out of range
// are clamped.
func (x *LineIndex) Line(offset int) int {
	offset = x.clamp(offset)
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > offset }) - 1
}

// LineStart returns the byte offset where 0-based line begins (clamped).
func (x *LineIndex) LineStart(line int) int {
	line = max(0, min(line, len(x.starts)-1))
	return x.starts[line]
}

// LineEnd returns the offset of the end of line's text, excluding its
// "\n", "\r\n" or "\r" terminator.
func (x *LineIndex) LineEnd(line int) int {
	line = max(0, min(line, len(x.starts)-1))
	end := len(x.src)
	if line+1 < len(x.starts) {
		end = x.starts[line+1] - 1
		if x.src[end] == '\n' && end > x.starts[line] && x.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// LineText returns the text of a 0-based line without its terminator.
func (x *LineIndex) LineText(line int) []byte {
	return x.src[x.LineStart(line):x.LineEnd(line)]
}

// Position is a 0-based line and a 0-based column.
type Position struct {
	Line   int
	Column int
}

// ByteColumn returns the 0-based line and byte column of offset.
func (x *LineIndex) ByteColumn(offset int) Position {
	offset = x.clamp(offset)
	l := x.Line(offset)
	return Position{Line: l, Column: offset - x.starts[l]}
}

// RuneColumn returns the 0-based line and column in runes (code points).
// An offset inside a multi-byte character counts the character as passed.
func (x *LineIndex) RuneColumn(offset int) Position {
	offset = x.clamp(offset)
	l := x.Line(offset)
	return Position{Line: l, Column: utf8.RuneCount(x.src[x.starts[l]:offset])}
}

// UTF16Column returns the 0-based line and column in UTF-16 code units, as
// the Language Server Protocol counts them by default. Invalid bytes count
// as one unit each, as U+FFFD does.
func (x *LineIndex) UTF16Column(offset int) Position {
	offset = x.clamp(offset)
	l := x.Line(offset)
	col := 0
	for b := x.src[x.starts[l]:offset]; len(b) > 0; {
		r, n := utf8.DecodeRune(b)
		if n > len(b) {
			n = len(b)
		}
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
		b = b[n:]
	}
	return Position{Line: l, Column: col}
}

// UTF16Offset returns the number of UTF-16 code units in the source
// before byte offset (SARIF's charOffset). The first call counts the units
// of every line once; later calls cost the column of one line.
func (x *LineIndex) UTF16Offset(offset int) int {
	x.utf16Once.Do(func() {
		x.utf16Starts = make([]int, len(x.starts))
		n, line := 0, 0
		for i := 0; i < len(x.src); {
			for line+1 < len(x.starts) && x.starts[line+1] <= i {
				line++
				x.utf16Starts[line] = n
			}
			r, size := utf8.DecodeRune(x.src[i:])
			if r >= 0x10000 {
				n += 2
			} else {
				n++
			}
			i += size
		}
		for line+1 < len(x.starts) {
			line++
			x.utf16Starts[line] = n
		}
	})
	p := x.UTF16Column(offset)
	return x.utf16Starts[p.Line] + p.Column
}

// OffsetFromUTF16 converts a 0-based line and UTF-16 column back to a byte
// offset. Lines past the end give len(src); columns past the end of the
// line, or inside a surrogate pair, snap to the line end or the
// character's start.
func (x *LineIndex) OffsetFromUTF16(pos Position) int {
	if pos.Line < 0 {
		return 0
	}
	if pos.Line >= len(x.starts) {
		return len(x.src)
	}
	off := x.starts[pos.Line]
	end := x.LineEnd(pos.Line)
	col := 0
	for off < end && col < pos.Column {
		r, n := utf8.DecodeRune(x.src[off:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if col+w > pos.Column {
			break
		}
		col += w
		off += n
	}
	return off
}

// OffsetFromByteColumn converts a 0-based line and byte column back to an
// offset, clamped to the line's text.
func (x *LineIndex) OffsetFromByteColumn(pos Position) int {
	if pos.Line < 0 {
		return 0
	}
	if pos.Line >= len(x.starts) {
		return len(x.src)
	}
	return min(x.starts[pos.Line]+max(pos.Column, 0), x.LineEnd(pos.Line))
}
