package cache

import (
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

func TestNewEdit(t *testing.T) {
	for _, tc := range []struct {
		name       string
		old        string
		start, end int
		text       string
		want       Edit
	}{
		{"insert at start", "ab\ncd", 0, 0, "x",
			Edit{0, 0, 1, Point{0, 0}, Point{0, 0}, Point{0, 1}}},
		{"replace within second line", "ab\ncd", 3, 4, "XYZ",
			Edit{3, 4, 6, Point{1, 0}, Point{1, 1}, Point{1, 3}}},
		{"delete across lines", "ab\ncd\nef", 1, 7, "",
			Edit{1, 7, 1, Point{0, 1}, Point{2, 1}, Point{0, 1}}},
		{"insert lines", "ab", 1, 1, "1\n22\n333",
			Edit{1, 1, 9, Point{0, 1}, Point{0, 1}, Point{2, 3}}},
		{"insert ending in newline", "ab", 2, 2, "\n",
			Edit{2, 2, 3, Point{0, 2}, Point{0, 2}, Point{1, 0}}},
		{"columns are bytes, not characters", "é€x", 5, 6, "𝄞",
			Edit{5, 6, 9, Point{0, 5}, Point{0, 6}, Point{0, 9}}},
		{"crlf counts the carriage return as column", "a\r\nb", 1, 4, "",
			Edit{1, 4, 1, Point{0, 1}, Point{1, 1}, Point{0, 1}}},
		{"clamped past the end", "ab", 1, 99, "z",
			Edit{1, 2, 2, Point{0, 1}, Point{0, 2}, Point{0, 2}}},
		{"end before start raised to start", "abc", 2, 1, "",
			Edit{2, 2, 2, Point{0, 2}, Point{0, 2}, Point{0, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := NewEdit(diagnostics.NewLineIndex([]byte(tc.old)), len(tc.old), tc.start, tc.end, []byte(tc.text))
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
