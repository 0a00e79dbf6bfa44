package ast

import (
	"strings"
	"testing"
)

// Every node type implements the interfaces its grammar node belongs to.
var (
	_ Expr    = (*Ident)(nil)
	_ Pattern = (*Ident)(nil)
	_ Expr    = (*Error)(nil)
	_ Decl    = (*Error)(nil)
	_ Type    = (*Error)(nil)
	_ Pattern = (*Error)(nil)
	_ Decl    = (*FuncDecl)(nil)
	_ Decl    = (*EvalPackDecl)(nil)
	_ Stmt    = (*VarDecl)(nil)
	_ Expr    = (*Call)(nil)
	_ Expr    = (*Match)(nil)
	_ Type    = (*UnionType)(nil)
	_ Pattern = (*VariantPattern)(nil)
)

func TestSpan(t *testing.T) {
	s := Span{Start: 4, End: 9}
	tests := []struct {
		off  int
		want bool
	}{{3, false}, {4, true}, {8, true}, {9, false}}
	for _, tt := range tests {
		if got := s.Contains(tt.off); got != tt.want {
			t.Errorf("Contains(%d) = %v, want %v", tt.off, got, tt.want)
		}
	}
	if s.Len() != 5 {
		t.Errorf("Len = %d, want 5", s.Len())
	}
	if got := s.Cover(Span{Start: 1, End: 6}); got != (Span{Start: 1, End: 9}) {
		t.Errorf("Cover = %+v", got)
	}
}

func TestBinaryOps(t *testing.T) {
	tests := []struct {
		text  string
		op    BinaryOp
		prec  int
		short bool
	}{
		{"||", Or, 4, true},
		{"&&", And, 5, true},
		{"==", Equal, 6, false},
		{"not in", NotInOp, 7, false},
		{"in", InOp, 7, false},
		{"-", Sub, 8, false},
		{"??", Coalesce, 9, true},
		{"%", Mod, 10, false},
		{"**", Pow, 12, false},
	}
	for _, tt := range tests {
		op, ok := LookupBinaryOp(tt.text)
		if !ok || op != tt.op {
			t.Errorf("LookupBinaryOp(%q) = %v, %v; want %v", tt.text, op, ok, tt.op)
			continue
		}
		if op.String() != tt.text || op.Precedence() != tt.prec || op.ShortCircuit() != tt.short {
			t.Errorf("%q: String %q Precedence %d ShortCircuit %v", tt.text, op.String(), op.Precedence(), op.ShortCircuit())
		}
	}
	if _, ok := LookupBinaryOp("|>"); ok {
		t.Error("|> is a pipe, not a binary operator")
	}
	if op, ok := LookupAssignOp("%="); !ok || op != AssignMod || op.String() != "%=" {
		t.Errorf("LookupAssignOp(%%=) = %v, %v", op, ok)
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		raw      string
		want     int64
		overflow bool
		err      bool
	}{
		{"500ms", 500, false, false},
		{"30s", 30000, false, false},
		{"2m", 120000, false, false},
		{"1h", 3600000, false, false},
		{"1d", 86400000, false, false},
		{"1w", 604800000, false, false},
		{"0ms", 0, false, false},
		{"99999999999999999999s", 0, true, false},
		{"9223372036854775807d", 0, true, false},
		{"10", 0, false, true},
		{"ms", 0, false, true},
		{"5y", 0, false, true},
	}
	for _, tt := range tests {
		got, over, err := ParseDuration(tt.raw)
		if (err != nil) != tt.err || over != tt.overflow || got != tt.want {
			t.Errorf("ParseDuration(%q) = %d, %v, %v; want %d, %v, err %v", tt.raw, got, over, err, tt.want, tt.overflow, tt.err)
		}
	}
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		raw      string
		want     int64
		overflow bool
		err      bool
	}{
		{"0", 0, false, false},
		{"42", 42, false, false},
		{"9223372036854775807", 9223372036854775807, false, false},
		{"9223372036854775808", 0, true, false},
		{"", 0, false, true},
		{"4a", 0, false, true},
	}
	for _, tt := range tests {
		got, over, err := ParseInt(tt.raw)
		if (err != nil) != tt.err || over != tt.overflow || got != tt.want {
			t.Errorf("ParseInt(%q) = %d, %v, %v", tt.raw, got, over, err)
		}
	}
}

func TestStringHelpers(t *testing.T) {
	escapes := map[string]string{`\n`: "\n", `\t`: "\t", `\\`: `\`, `\"`: `"`, `\$`: "$", `\0`: "\x00", `\q`: `\q`}
	for in, want := range escapes {
		if got := DecodeEscape(in); got != want {
			t.Errorf("DecodeEscape(%q) = %q, want %q", in, got, want)
		}
	}
	raws := []struct{ in, want string }{
		{`r"C:\path"`, `C:\path`},
		{`r#"say "hi""#`, `say "hi"`},
		{`r##"a"#b"##`, `a"#b`},
	}
	for _, tt := range raws {
		if got, err := RawStringBody(tt.in); err != nil || got != tt.want {
			t.Errorf("RawStringBody(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`"x"`, `r#"x"`, `r"`} {
		if _, err := RawStringBody(bad); err == nil {
			t.Errorf("RawStringBody(%q) accepted", bad)
		}
	}
	dedent := []struct{ in, want string }{
		{"\n    hello\n      world\n  ", "hello\n  world"},
		{"\n  a\n\n  b\n", "a\n\nb"},
		{"one line", "one line"},
	}
	for _, tt := range dedent {
		if got := Dedent(tt.in); got != tt.want {
			t.Errorf("Dedent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStringLitValue(t *testing.T) {
	plain := &StringLit{Parts: []StringPart{{Text: "a"}, {Text: "b"}}}
	if v, ok := plain.Value(); !ok || v != "ab" || plain.Interpolated() {
		t.Errorf("plain Value = %q, %v", v, ok)
	}
	interp := &StringLit{Parts: []StringPart{{Text: "a"}, {Expr: &Ident{Name: "x"}}}}
	if _, ok := interp.Value(); ok || !interp.Interpolated() {
		t.Error("interpolated string reported a constant value")
	}
	if (&Comment{Block: true, Text: "/** doc */"}).Doc() != true || (&Comment{Text: "// x"}).Doc() {
		t.Error("Comment.Doc misclassifies")
	}
}

func TestDump(t *testing.T) {
	n := &Binary{
		Span:  Span{0, 5},
		Op:    Add,
		Left:  &Ident{Span: Span{0, 1}, Name: "a"},
		Right: &IntLit{Span: Span{4, 5}, Raw: "1", Value: 1},
	}
	want := `Binary [0,5)
  Op: +
  Left: Ident [0,1)
    Name: "a"
  Right: IntLit [4,5)
    Raw: "1"
    Value: 1
`
	if got := Dump(n); got != want {
		t.Errorf("Dump =\n%s\nwant\n%s", got, want)
	}
	list := &ListLit{Span: Span{0, 4}, Elements: []Expr{&NilLit{Span: Span{1, 4}}}}
	if got := Dump(list); got != "ListLit [0,4)\n  Elements: \n    - NilLit [1,4)\n" {
		t.Errorf("Dump(list) = %q", got)
	}
}

func TestDumpShowsZeroOperators(t *testing.T) {
	n := &Binary{Op: Or, Left: &Ident{Name: "a"}, Right: &Ident{Name: "b"}}
	if got := Dump(n); !strings.Contains(got, "Op: ||") {
		t.Errorf("Dump omitted the zero operator:\n%s", got)
	}
	f := &ShapeField{Name: "a", NameSpan: Span{3, 4}}
	if got := Dump(f); !strings.Contains(got, "NameSpan: [3,4)") {
		t.Errorf("Dump did not print a Span field inline:\n%s", got)
	}
	v := &VarDecl{Kind: Let, Pattern: &Ident{Name: "x"}, Value: &NilLit{}}
	if got := Dump(v); !strings.Contains(got, "Kind: let") {
		t.Errorf("Dump omitted the let kind:\n%s", got)
	}
}
