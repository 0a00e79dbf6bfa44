package diagnostics

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// TestTextNeverPrintsControlCharacters: no control character of a source
// line, a message or a help text reaches the terminal (escape sequences
// could recolour it, set its title, or hide text), and bidi overrides are
// shown as U+FFFD.
func TestTextNeverPrintsControlCharacters(t *testing.T) {
	src := []byte("let x = \"\x1b]0;owned\x07\x1b[2J\x00\x7f\u009b31m\u202eevil\u2066\" + y\n")
	d := New("a.harn", SourceType, "HARN-NAM-001", Span{Start: 40, End: 41}, "undefined \x1b[31mred\x1b[0m y")
	d.Help = "help\x07 with bell"
	var b bytes.Buffer
	if err := RenderText(&b, &Report{Files: []File{{Path: "a.harn", Source: src, Diagnostics: []Diagnostic{d}}}}, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)) {
			t.Fatalf("control character %U printed:\n%q", r, out)
		}
	}
	for _, want := range []string{"␛]0;owned␇␛[2J␀␡", "undefined ␛[31mred␛[0m y", "help␇ with bell"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestLongLinesAreWindowed: a line much wider than the terminal is cut
// to a window around the marked range, and the marks stay under it.
func TestLongLinesAreWindowed(t *testing.T) {
	line := strings.Repeat("a", 50000) + "TARGET" + strings.Repeat("b", 50000)
	at := strings.Index(line, "TARGET")
	d := New("a.harn", SourceType, "HARN-NAM-001", Span{Start: at, End: at + 6}, "undefined TARGET")
	var b bytes.Buffer
	if err := RenderText(&b, &Report{Files: []File{{Path: "a.harn", Source: []byte(line + "\n"), Diagnostics: []Diagnostic{d}}}}, TextOptions{MaxLineWidth: 80}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if len(out) > 1000 {
		t.Fatalf("%d bytes printed for one diagnostic on a 100 KB line", len(out))
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "TARGET") && strings.HasPrefix(strings.TrimSpace(l), "1 |") {
			under := lines[i+1]
			col := strings.Index(l, "TARGET")
			if strings.Index(under, "^^^^^^") != utf8.RuneCountInString(l[:col]) || !strings.Contains(l, "…") {
				t.Errorf("marks not under the target:\n%s\n%s", l, under)
			}
			return
		}
	}
	t.Errorf("the target line is not shown:\n%s", out)
}

// TestUTF16OffsetMatchesAFullCount: the indexed UTF-16 offset equals
// counting the units of the whole prefix, for every offset of a text with
// astral, multi-byte and invalid characters and both line endings.
func TestUTF16OffsetMatchesAFullCount(t *testing.T) {
	src := []byte("a𝄞b\r\né\xffc\n\n😀x\ry\r\nz")
	x := NewLineIndex(src)
	checked := 0
	for off := 0; off <= len(src); off++ {
		if off < len(src) && !utf8.RuneStart(src[off]) {
			continue // inside a character
		}
		want := 0
		for b := src[:off]; len(b) > 0; {
			r, n := utf8.DecodeRune(b)
			want += max(1, len(utf16.Encode([]rune{r}))) // an invalid byte is one unit, as U+FFFD
			b = b[n:]
		}
		checked++
		if got := x.UTF16Offset(off); got != want {
			t.Errorf("UTF16Offset(%d) = %d, want %d", off, got, want)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d offsets checked", checked)
	}
}
