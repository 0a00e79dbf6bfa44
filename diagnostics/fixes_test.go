package diagnostics

import (
	"strings"
	"testing"
)

func TestApplyFixes(t *testing.T) {
	fix := func(code string, edits ...TextEdit) Diagnostic {
		return Diagnostic{Code: code, Fixes: []Fix{{Title: "t", Edits: edits}}}
	}
	unsafe := func(d Diagnostic) Diagnostic { d.Fixes[0].Unsafe = true; return d }
	ed := func(s, e int, text string) TextEdit { return TextEdit{Span: Span{Start: s, End: e}, NewText: text} }
	tests := []struct {
		name     string
		ds       []Diagnostic
		opts     FixOptions
		want     string
		applied  string
		deferred string
		withheld int
		err      string
	}{
		{name: "no fixes", ds: []Diagnostic{{Code: "A"}}, want: "abcdef"},
		{name: "insert and replace, out of order", ds: []Diagnostic{fix("A", ed(4, 6, "XY")), fix("B", ed(0, 0, ">"))}, want: ">abcdXY", applied: "B A"},
		{name: "only the first fix applies", ds: []Diagnostic{{Code: "A", Fixes: []Fix{{Edits: []TextEdit{ed(1, 2, "1")}}, {Edits: []TextEdit{ed(1, 2, "2")}}}}}, want: "a1cdef", applied: "A"},
		{name: "overlap is deferred", ds: []Diagnostic{fix("A", ed(1, 4, "")), fix("B", ed(3, 5, ""))}, want: "aef", applied: "A", deferred: "B"},
		{name: "same insertion point is deferred", ds: []Diagnostic{fix("A", ed(2, 2, "x")), fix("B", ed(2, 2, "y"))}, want: "abxcdef", applied: "A", deferred: "B"},
		{name: "a fix applies whole or not at all", ds: []Diagnostic{fix("A", ed(1, 2, "")), fix("B", ed(0, 0, "<"), ed(1, 3, ""))}, want: "<adef", applied: "B", deferred: "A"},
		{name: "two edits of one fix", ds: []Diagnostic{fix("A", ed(5, 6, ")"), ed(0, 1, "("))}, want: "(bcde)", applied: "A"},
		{name: "unsafe withheld", ds: []Diagnostic{unsafe(fix("A", ed(0, 1, "")))}, want: "abcdef", withheld: 1},
		{name: "unsafe applied on request", ds: []Diagnostic{unsafe(fix("A", ed(0, 1, "")))}, opts: FixOptions{Unsafe: true}, want: "bcdef", applied: "A"},
		{name: "kept by the filter only", ds: []Diagnostic{fix("A", ed(0, 1, "")), fix("B", ed(5, 6, ""))}, opts: FixOptions{Keep: func(d Diagnostic) bool { return d.Code == "B" }}, want: "abcde", applied: "B"},
		{name: "another file's edit is deferred", ds: []Diagnostic{{Code: "A", Path: "x", Fixes: []Fix{{Edits: []TextEdit{{Path: "y", Span: Span{0, 1}}}}}}}, want: "abcdef", deferred: "A"},
		{name: "outside", ds: []Diagnostic{fix("A", ed(5, 9, ""))}, err: "outside the 6-byte source"},
		{name: "own edits overlap", ds: []Diagnostic{fix("A", ed(0, 3, ""), ed(2, 4, ""))}, err: "overlap"},
	}
	codes := func(ds []Diagnostic) string {
		var s []string
		for _, d := range ds {
			s = append(s, d.Code)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range tests {
		got, err := ApplyFixes([]byte("abcdef"), tc.ds, tc.opts)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || string(got.Text) != tc.want || codes(got.Applied) != tc.applied || codes(got.Deferred) != tc.deferred || got.Withheld != tc.withheld {
			t.Errorf("%s: %q applied %q deferred %q withheld %d err %v; want %q %q %q %d", tc.name, got.Text, codes(got.Applied), codes(got.Deferred), got.Withheld, err,
				tc.want, tc.applied, tc.deferred, tc.withheld)
		}
	}
}
