package diagnostics

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestLineIndexColumns(t *testing.T) {
	// "é" is 2 bytes/1 rune/1 UTF-16 unit; "😀" is 4 bytes/1 rune/2 units.
	src := []byte("ab\r\né😀x\n\tz\n")
	x := NewLineIndex(src)
	tests := []struct {
		name     string
		offset   int
		line     int
		byteCol  int
		runeCol  int
		utf16Col int
	}{
		{"start", 0, 0, 0, 0, 0},
		{"before CR", 2, 0, 2, 2, 2},
		{"line 2 start", 4, 1, 0, 0, 0},
		{"after é", 6, 1, 2, 1, 1},
		{"after emoji", 10, 1, 6, 2, 3},
		{"x end", 11, 1, 7, 3, 4},
		{"tab line", 12, 2, 0, 0, 0},
		{"after tab", 13, 2, 1, 1, 1},
		{"end of file", 15, 3, 0, 0, 0},
		{"past end clamps", 99, 3, 0, 0, 0},
		{"negative clamps", -5, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := x.ByteColumn(tc.offset); got != (Position{tc.line, tc.byteCol}) {
				t.Errorf("ByteColumn = %+v", got)
			}
			if got := x.RuneColumn(tc.offset); got != (Position{tc.line, tc.runeCol}) {
				t.Errorf("RuneColumn = %+v", got)
			}
			if got := x.UTF16Column(tc.offset); got != (Position{tc.line, tc.utf16Col}) {
				t.Errorf("UTF16Column = %+v", got)
			}
			if tc.offset >= 0 && tc.offset <= len(src) {
				if got := x.OffsetFromUTF16(Position{tc.line, tc.utf16Col}); got != tc.offset {
					t.Errorf("OffsetFromUTF16 = %d", got)
				}
				if got := x.OffsetFromByteColumn(Position{tc.line, tc.byteCol}); got != tc.offset {
					t.Errorf("OffsetFromByteColumn = %d", got)
				}
			}
		})
	}
}

func TestLineIndexLines(t *testing.T) {
	x := NewLineIndex([]byte("one\r\ntwo\n\nlast"))
	want := []string{"one", "two", "", "last"}
	if x.LineCount() != len(want) {
		t.Fatalf("LineCount = %d", x.LineCount())
	}
	for i, w := range want {
		if got := string(x.LineText(i)); got != w {
			t.Errorf("line %d = %q, want %q", i, got, w)
		}
	}
	// Inside a surrogate pair and past the end of the line snap back.
	y := NewLineIndex([]byte("😀ab\nc"))
	if got := y.OffsetFromUTF16(Position{0, 1}); got != 0 {
		t.Errorf("inside surrogate pair: %d", got)
	}
	if got := y.OffsetFromUTF16(Position{0, 40}); got != 6 {
		t.Errorf("past line end: %d", got)
	}
	if got := y.OffsetFromUTF16(Position{7, 0}); got != 8 {
		t.Errorf("past last line: %d", got)
	}
	if got := NewLineIndex(nil).ByteColumn(0); got != (Position{0, 0}) {
		t.Errorf("empty file: %+v", got)
	}
}

// TestLoneCRIsALineBreak: "\r" alone ends a line, as "\n" and "\r\n" do,
// and no terminator belongs to a line's text.
func TestLoneCRIsALineBreak(t *testing.T) {
	src := []byte("a\rbb\r\nccc\nd\r")
	x := NewLineIndex(src)
	if x.LineCount() != 5 || !x.HasLoneCR() {
		t.Fatalf("%d lines, lone CR %v", x.LineCount(), x.HasLoneCR())
	}
	for i, want := range []string{"a", "bb", "ccc", "d", ""} {
		if got := string(x.LineText(i)); got != want {
			t.Errorf("line %d = %q, want %q", i, got, want)
		}
	}
	if p := x.ByteColumn(2); p != (Position{Line: 1, Column: 0}) {
		t.Errorf("offset 2 at %+v", p)
	}
	if off := x.OffsetFromUTF16(Position{Line: 2, Column: 1}); off != 7 {
		t.Errorf("line 2 column 1 at %d, want 7", off)
	}
	if NewLineIndex([]byte("a\r\nb\n")).HasLoneCR() {
		t.Error("CRLF reported as a lone CR")
	}
}

// TestNewLineIndexMatchesByteScan compares the index of random texts,
// with and without "\r", with the byte-by-byte scan of every terminator.
func TestNewLineIndexMatchesByteScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	alphabet := []string{"a", "é", "\n", "\n", " ", "\r\n", "\r", "\n\n"}
	for n := range 400 {
		var b []byte
		for range r.IntN(60) {
			c := alphabet[r.IntN(len(alphabet))]
			if n%2 == 0 && c[0] == '\r' {
				c = "x" // half the texts have no "\r": the fast path
			}
			b = append(b, c...)
		}
		got, want := NewLineIndex(b), newLineIndexCR(b)
		if !reflect.DeepEqual(got.starts, want.starts) || got.loneCR != want.loneCR {
			t.Fatalf("%q: line starts %v lone CR %v, want %v %v", b, got.starts, got.loneCR, want.starts, want.loneCR)
		}
	}
}
