package harntest

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

func TestApplyFixes(t *testing.T) {
	fix := func(code string, edits ...diagnostics.TextEdit) diagnostics.Diagnostic {
		return diagnostics.Diagnostic{Code: code, Fixes: []diagnostics.Fix{{Title: "t", Edits: edits}}}
	}
	ed := func(s, e int, text string) diagnostics.TextEdit {
		return diagnostics.TextEdit{Span: diagnostics.Span{Start: s, End: e}, NewText: text}
	}
	tests := []struct {
		name string
		ds   []diagnostics.Diagnostic
		want string
		err  string
	}{
		{"no fixes", []diagnostics.Diagnostic{{Code: "A"}}, "abcdef", ""},
		{"insert and replace, out of order", []diagnostics.Diagnostic{fix("A", ed(4, 6, "XY")), fix("B", ed(0, 0, ">"))}, ">abcdXY", ""},
		{"only the first fix applies", []diagnostics.Diagnostic{{Code: "A", Fixes: []diagnostics.Fix{{Edits: []diagnostics.TextEdit{ed(1, 2, "1")}}, {Edits: []diagnostics.TextEdit{ed(1, 2, "2")}}}}}, "a1cdef", ""},
		{"overlap", []diagnostics.Diagnostic{fix("A", ed(1, 4, "")), fix("B", ed(3, 5, ""))}, "", "B fix: edit at 3 overlaps the A edit ending at 4"},
		{"outside", []diagnostics.Diagnostic{fix("A", ed(5, 9, ""))}, "", "outside the 6-byte source"},
	}
	for _, tc := range tests {
		got, err := ApplyFixes([]byte("abcdef"), tc.ds)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.name, got, err, tc.want)
		}
	}
}
