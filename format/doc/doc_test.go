package doc

import (
	"strings"
	"testing"
)

// call is f(args...) with the arguments in a Wadler group.
func call(name string, args ...*Doc) *Doc {
	var parts []*Doc
	for i, a := range args {
		if i > 0 {
			parts = append(parts, Text(","), Line())
		}
		parts = append(parts, a)
	}
	return Concat(Text(name+"("), Group(Concat(Indent(Concat(SoftLine(), Concat(parts...), IfBreak(Text(","), nil))), SoftLine())), Text(")"))
}

func TestPrint(t *testing.T) {
	words := func(n int) []*Doc {
		var out []*Doc
		for i := range n {
			out = append(out, Text(strings.Repeat(string(rune('a'+i)), 5)))
		}
		return out
	}
	tests := []struct {
		name  string
		doc   *Doc
		width int
		want  string
	}{
		{"empty", nil, 80, ""},
		{"text", Text("hello"), 80, "hello"},
		{"group fits", call("f", words(3)...), 80, "f(aaaaa, bbbbb, ccccc)"},
		{"group breaks", call("f", words(3)...), 20, "f(\n  aaaaa,\n  bbbbb,\n  ccccc,\n)"},
		// The text after the group counts: "f(aaaaa)" is 8 columns, the
		// ";;;" behind it makes 11.
		{"rest of line counts", Concat(call("f", words(1)...), Text(";;;")), 10, "f(\n  aaaaa,\n);;;"},
		{"nested: outer breaks, inner fits", call("f", call("g", words(2)...), call("h", words(2)...)), 24,
			"f(\n  g(aaaaa, bbbbb),\n  h(aaaaa, bbbbb),\n)"},
		{"hard line breaks its groups", call("f", Concat(Text("x"), HardLine(), Text("y"))), 80, "f(\n  x\n  y,\n)"},
		{"multi-line text breaks its groups, kept exactly", call("f", Text("\"\"\"\n  raw  \n\"\"\"")), 80,
			"f(\n  \"\"\"\n  raw  \n\"\"\",\n)"},
		{"trailing spaces trimmed", Concat(Text("a "), HardLine(), Text("b")), 80, "a\nb"},
		{"blank line has no indentation", Indent(Concat(Text("a"), HardLine(), HardLine(), Text("b"))), 80, "a\n\n  b"},
		{"line suffix goes behind the comma", Concat(Text("["), Indent(Concat(HardLine(), Text("a"), LineSuffix(Text(" // c")), Text(","), HardLine(), Text("b"), Text(","))), HardLine(), Text("]")), 80,
			"[\n  a, // c\n  b,\n]"},
		{"line suffix flushed at the end", Concat(Text("a"), LineSuffix(Text(" // c"))), 80, "a // c"},
		{"within budget still breaks past the width", Concat(Text(strings.Repeat("x", 30)), GroupWithin(10, Concat(Text("("), Indent(Concat(SoftLine(), Text("a"), Text(","), Line(), Text("b"))), SoftLine(), Text(")")))), 20,
			strings.Repeat("x", 30) + "(\n  a,\n  b\n)"},
		{"within budget stays flat when it fits", Concat(Text(strings.Repeat("x", 10)), GroupWithin(10, Concat(Text("("), Indent(Concat(SoftLine(), Text("a"), Text(","), Line(), Text("b"))), SoftLine(), Text(")")))), 20,
			strings.Repeat("x", 10) + "(a, b)"},
		{"over budget breaks at column 0", GroupWithin(3, Concat(Text("("), Indent(Concat(SoftLine(), Text("a"), Text(","), Line(), Text("b"))), SoftLine(), Text(")"))), 80,
			"(\n  a,\n  b\n)"},
		{"flat never breaks", Flat(Concat(Text("a"), Line(), Text("b"))), 1, "a b"},
		{"broken always breaks", Broken(Concat(Text("a"), Line(), Text("b"))), 80, "a\nb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(Print(tc.doc, Options{Width: tc.width}))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	d := Concat(Text("a"), Indent(Concat(HardLine(), Text("b"))))
	if got := string(Print(d, Options{IndentWidth: 4})); got != "a\n    b" {
		t.Errorf("IndentWidth 4: %q", got)
	}
	if got := string(Print(d, Options{Tabs: true})); got != "a\n\tb" {
		t.Errorf("Tabs: %q", got)
	}
	if got := string(Print(d, Options{Newline: "\r\n"})); got != "a\r\n  b" {
		t.Errorf("CRLF: %q", got)
	}
}

func TestMeasure(t *testing.T) {
	d := Concat(Text("ab"), Line(), Text("cd"))
	if d.Width() != 5 || d.HasNewline() {
		t.Errorf("width %d, newline %v; want 5, false", d.Width(), d.HasNewline())
	}
	if w := Text("héllo").Width(); w != 5 {
		t.Errorf("width counts runes: %d", w)
	}
	g := GroupWithin(4, d)
	if !g.HasNewline() {
		t.Error("a group over its budget must report a newline")
	}
	if GroupWithin(5, d).HasNewline() {
		t.Error("a group within its budget must not report a newline")
	}
	if !Concat(Text("x"), HardLine()).HasNewline() || !Text("a\nb").HasNewline() {
		t.Error("hard lines and multi-line text are newlines")
	}
	if Join(Text(", "), []*Doc{Text("a"), nil, Text("b")}).Width() != 4 {
		t.Error("Join skips nil documents and their separators")
	}
}

// TestDeep prints a document nested 100,000 levels deep: Print must not
// recurse.
func TestDeep(t *testing.T) {
	d := Text("x")
	for range 100000 {
		d = Group(Indent(Concat(Text("("), d, Text(")"))))
	}
	out := Print(d, Options{Width: 10})
	if len(out) != 200001 {
		t.Fatalf("printed %d bytes", len(out))
	}
}
