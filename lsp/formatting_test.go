package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

// wireEdit is a protocol TextEdit.
type wireEdit struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	NewText string
}

// applyWire applies protocol edits to text as an editor does (positions in
// UTF-16 code units, all relative to the text before any edit).
func applyWire(t *testing.T, text string, edits []wireEdit) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	offset := func(line, char int) int {
		off := 0
		for i := 0; i < line && i < len(lines); i++ {
			off += len(lines[i])
		}
		if line >= len(lines) {
			return len(text)
		}
		units := 0
		for i, r := range lines[line] {
			if units >= char {
				return off + i
			}
			units += len(utf16.Encode([]rune{r}))
		}
		return off + len(strings.TrimSuffix(lines[line], "\n"))
	}
	type span struct {
		s, e int
		text string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(e.Range.Start.Line, e.Range.Start.Character), offset(e.Range.End.Line, e.Range.End.Character), e.NewText})
	}
	for i := len(spans) - 1; i >= 0; i-- {
		if i > 0 && spans[i-1].e > spans[i].s {
			t.Fatalf("edits overlap or are out of order: %+v", edits)
		}
		text = text[:spans[i].s] + spans[i].text + text[spans[i].e:]
	}
	return text
}

func formatCall(t *testing.T, c *lsptest.Client, method string, params map[string]any) ([]wireEdit, *lsptest.RPCError) {
	t.Helper()
	m := c.Call(method, params)
	if m.Error != nil {
		return nil, m.Error
	}
	var edits []wireEdit
	if err := json.Unmarshal(m.Result, &edits); err != nil {
		t.Fatalf("%s result %s: %v", method, m.Result, err)
	}
	return edits, nil
}

// TestFormatting formats a Harn and a Leia document through the server:
// the edits, applied as an editor applies them, give the formatter's text,
// and they are minimal (one per changed run of whitespace, never the whole
// document). Leia honours the editor's tab size and tabs; Harn does not.
func TestFormatting(t *testing.T) {
	harnSrc := "// é stays\nfn grade(score: int) -> string {\nif score > 90 { return \"A\" }\n    return \"B\"   // trailing\n}\nlet x = [1,2,3]\n"
	leiaSrc := "func f(x) {\nif x {\nreturn  1\n}\n}\nt := {a: 1,b: 2}\n"
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open("file:///w/a.harn", "harn", 1, harnSrc)
	c.Open("file:///w/b.leia", "leia", 1, leiaSrc)
	opts := func(tab int, spaces bool) map[string]any {
		return map[string]any{"tabSize": tab, "insertSpaces": spaces}
	}

	for _, tc := range []struct {
		uri, src, ext string
		options       map[string]any
		want          string
	}{
		{"file:///w/a.harn", harnSrc, ".harn", opts(4, true), ""},
		{"file:///w/a.harn", harnSrc, ".harn", opts(8, false), ""}, // Harn's layout is fixed
		{"file:///w/b.leia", leiaSrc, ".leia", opts(4, true), "func f(x) {\n    if x {\n        return 1\n    }\n}\nt := {a: 1, b: 2}\n"},
		{"file:///w/b.leia", leiaSrc, ".leia", opts(2, true), "func f(x) {\n  if x {\n    return 1\n  }\n}\nt := {a: 1, b: 2}\n"},
		{"file:///w/b.leia", leiaSrc, ".leia", opts(4, false), "func f(x) {\n\tif x {\n\t\treturn 1\n\t}\n}\nt := {a: 1, b: 2}\n"},
	} {
		edits, rpcErr := formatCall(t, c, "textDocument/formatting", map[string]any{
			"textDocument": map[string]any{"uri": tc.uri}, "options": tc.options})
		if rpcErr != nil {
			t.Fatalf("%s: %v", tc.uri, rpcErr)
		}
		want := tc.want
		if want == "" {
			l, _ := format.ForExt(tc.ext)
			out, err := l.Format([]byte(tc.src), format.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want = string(out)
		}
		if got := applyWire(t, tc.src, edits); got != want {
			t.Errorf("%s %v: edits give\n%s\nwant\n%s", tc.uri, tc.options, got, want)
		}
		if len(edits) < 2 {
			t.Errorf("%s: %d edit(s); want minimal edits, not a replacement", tc.uri, len(edits))
		}
		for _, e := range edits {
			if strings.TrimSpace(strings.NewReplacer(",", "", ";", "").Replace(e.NewText)) != "" {
				t.Errorf("%s: edit %+v inserts more than whitespace and separators", tc.uri, e)
			}
		}
	}

	// A formatted document needs no edits.
	c.Open("file:///w/c.harn", "harn", 1, "fn f() {\n  return 1\n}\n")
	if edits, err := formatCall(t, c, "textDocument/formatting", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/c.harn"}, "options": opts(2, true)}); err != nil || len(edits) != 0 {
		t.Errorf("formatted document: %v, %v", edits, err)
	}
}

// TestRangeFormatting formats lines 2-3 of a document: only edits on those
// lines come back.
func TestRangeFormatting(t *testing.T) {
	src := "fn a() {\nlet x=1\nlet y=2\nlet z=3\n}\n"
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open("file:///w/a.harn", "harn", 1, src)
	edits, err := formatCall(t, c, "textDocument/rangeFormatting", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/a.harn"},
		"range":        lsptest.Range(2, 3, 2, 5), "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := applyWire(t, src, edits), "fn a() {\nlet x=1\n  let y = 2\nlet z=3\n}\n"; got != want {
		t.Errorf("range formatting gives\n%s\nwant\n%s", got, want)
	}
	for _, e := range edits {
		if e.Range.Start.Line != 2 && !(e.Range.Start.Line == 1 && e.Range.End.Line == 2) {
			t.Errorf("edit outside the range: %+v", e)
		}
	}
}

// TestFormattingRefusesSyntaxErrors: a document with syntax errors is not
// formatted; the request fails with a message saying why, and a document
// of a language without a formatter gets no edits.
func TestFormattingRefusesSyntaxErrors(t *testing.T) {
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open("file:///w/bad.harn", "harn", 1, "fn f( {\n")
	_, err := formatCall(t, c, "textDocument/formatting", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/bad.harn"}, "options": map[string]any{}})
	if err == nil || !strings.Contains(err.Message, "syntax errors") {
		t.Errorf("want a syntax-error failure, got %v", err)
	}
	if _, err := formatCall(t, c, "textDocument/formatting", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/nope.harn"}, "options": map[string]any{}}); err == nil {
		t.Error("formatting a document that is not open must fail")
	}
}

// The server formats with the CLI's formatter, so it keeps the width too:
// no line over 100 columns where a break is possible (issue 29).
func TestFormattingKeepsTheWidth(t *testing.T) {
	src := "fn route(ticket: {text: string}) -> string {\n  if true {\n    const policy: EvaluationPolicy = {backend: \"structured_llm\", provider: \"mock\", model: \"fixture\", threshold: 0.8}\n  }\n  return ticket.text\n}\n"
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", nil)
	c.Open("file:///w/long.harn", "harn", 1, src)
	edits, rpcErr := formatCall(t, c, "textDocument/formatting", map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/long.harn"}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	got := applyWire(t, src, edits)
	for _, line := range strings.Split(got, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns:\n%s", n, got)
		}
	}
	if !strings.Contains(got, "= {\n      backend: \"structured_llm\",\n") {
		t.Errorf("the dict did not break:\n%s", got)
	}
}
