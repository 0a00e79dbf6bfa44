package mapper

import (
	"encoding/json"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
)

func pos(l, c int) protocol.Position {
	return protocol.Position{Line: protocol.UInteger(l), Character: protocol.UInteger(c)}
}

func TestOffset(t *testing.T) {
	m := New("file:///a", []byte("a𝄞b\r\nxy"), nil)
	for _, tc := range []struct {
		p    protocol.Position
		want int
		err  string
	}{
		{pos(0, 0), 0, ""},
		{pos(0, 1), 1, ""},
		{pos(0, 2), 1, ""}, // inside the surrogate pair: the character's start
		{pos(0, 3), 5, ""},
		{pos(0, 99), 6, ""}, // clamps before "\r\n"
		{pos(1, 2), 10, ""},
		{pos(2, 0), 0, "position 2:0 is beyond the end of the document (2 lines)"},
	} {
		got, err := m.Offset(tc.p)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Offset(%v) err = %v, want %q", tc.p, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Offset(%v) = %d, %v; want %d", tc.p, got, err, tc.want)
		}
		if back := m.Position(got); tc.p.Character <= 3 && tc.p != pos(0, 2) && back != tc.p {
			t.Errorf("Position(%d) = %v, want %v", got, back, tc.p)
		}
	}
	if _, err := m.Span(protocol.Range{Start: pos(1, 1), End: pos(1, 0)}); err == nil {
		t.Error("reversed range must be an error")
	}
}

func TestDiagnosticAndEdits(t *testing.T) {
	self := New("file:///w/a.harn", []byte("let é = 1\n"), ptrTo(int32(3)))
	other := New("file:///w/lib.harn", []byte("x\ny\n"), nil)
	files := func(path string) *Mapper {
		if path == "lib.harn" {
			return other
		}
		return nil
	}
	d := diagnostics.New("a.harn", diagnostics.SourceType, "HARN-TYP-036", diagnostics.Span{Start: 4, End: 6}, "msg")
	d.Help = "do this"
	d.Related = []diagnostics.Related{
		{Path: "lib.harn", Span: diagnostics.Span{Start: 2, End: 3}, Message: "declared here"},
		{Path: "missing.harn", Span: diagnostics.Span{Start: 0, End: 1}, Message: "dropped"},
		{Span: diagnostics.Span{Start: 0, End: 3}, Message: "same file"},
	}
	pd := Diagnostic(self, d, files, func(code string) string { return "file:///explain/" + code + ".md" })
	got, _ := json.Marshal(pd)
	want := `{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":5}},"severity":1,"code":"HARN-TYP-036",` +
		`"codeDescription":{"href":"file:///explain/HARN-TYP-036.md"},"source":"harn-check","message":"msg\nhelp: do this",` +
		`"relatedInformation":[{"location":{"uri":"file:///w/lib.harn","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}},"message":"declared here"},` +
		`{"location":{"uri":"file:///w/a.harn","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}}},"message":"same file"}]}`
	if string(got) != want {
		t.Errorf("diagnostic\n%s\nwant\n%s", got, want)
	}

	edits := []diagnostics.TextEdit{
		{Span: diagnostics.Span{Start: 8, End: 9}, NewText: "2"},
		{Path: "lib.harn", Span: diagnostics.Span{Start: 0, End: 1}, NewText: "z"},
		{Span: diagnostics.Span{Start: 0, End: 3}, NewText: "var"},
	}
	pe, mappers, ok := TextEdits(self, edits, files)
	if !ok {
		t.Fatal("edits not converted")
	}
	for _, tc := range []struct {
		docChanges bool
		want       string
	}{
		{false, `{"changes":{"file:///w/a.harn":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"newText":"var"},` +
			`{"range":{"start":{"line":0,"character":7},"end":{"line":0,"character":8}},"newText":"2"}],` +
			`"file:///w/lib.harn":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"z"}]}}`},
		{true, `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.harn","version":3},"edits":[` +
			`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"newText":"var"},` +
			`{"range":{"start":{"line":0,"character":7},"end":{"line":0,"character":8}},"newText":"2"}]},` +
			`{"textDocument":{"uri":"file:///w/lib.harn","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"z"}]}]}`},
	} {
		got, _ := json.Marshal(WorkspaceEdit(pe, mappers, tc.docChanges))
		if string(got) != tc.want {
			t.Errorf("documentChanges=%v:\n%s\nwant\n%s", tc.docChanges, got, tc.want)
		}
	}
	if _, _, ok := TextEdits(self, []diagnostics.TextEdit{{Path: "missing.harn"}}, files); ok {
		t.Error("an edit into an unreadable file must fail the conversion")
	}
}

func TestOverlaps(t *testing.T) {
	s := func(a, b int) diagnostics.Span { return diagnostics.Span{Start: a, End: b} }
	for _, tc := range []struct {
		a, b diagnostics.Span
		want bool
	}{
		{s(0, 3), s(2, 5), true},
		{s(0, 3), s(3, 5), false},
		{s(3, 3), s(0, 3), true}, // a cursor at the end of a diagnostic
		{s(4, 4), s(0, 3), false},
	} {
		if got := Overlaps(tc.a, tc.b); got != tc.want {
			t.Errorf("Overlaps(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
