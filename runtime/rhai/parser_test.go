package rhai

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseErrorPositions(t *testing.T) {
	cases := []struct {
		name      string
		src       string
		msg       string
		pos       int // byte offset
		line, col int
	}{
		{"missing semicolon", "let x = 1 let y = 2;", "Expecting ';' to terminate this statement", 10, 1, 11},
		{"unterminated string", "let s = \"abc\n;", "Unterminated string literal", 8, 1, 9},
		{"bad escape", `let s = "\q";`, "Invalid escape sequence '\\q'", 9, 1, 10},
		{"eval is disabled", "fn validate(c) {\n  eval(c)\n}", "Reserved keyword 'eval' is disabled", 19, 2, 3},
		{"null is reserved", "fn validate(c) { if c == null { 1 } }", "'null' is a reserved keyword", 25, 1, 26},
		{"break outside a loop", "fn f() { break; }", "Break statement should only be used inside a loop", 9, 1, 10},
		{"continue outside a loop", "continue;", "Continue statement should only be used inside a loop", 0, 1, 1},
		{"fn inside a block", "fn f() { fn g() {} }", "Function definitions must be at global level", 9, 1, 10},
		{"duplicate function", "fn f(a) {}\nfn f(b) {}", "Function f with 1 parameter already exists", 14, 2, 4},
		{"duplicate parameter", "fn f(a, a) {}", "Duplicated parameter a for function f", 8, 1, 9},
		{"duplicate map key", `#{a: 1, "a": 2}`, "Duplicated property for object map literal: a", 8, 1, 9},
		{"duplicate switch case", "switch 1 { 1 => 2, 1 => 3 }", "Duplicated switch case", 19, 1, 20},
		{"default case not last", "switch 1 { _ => 2, 1 => 3 }", "Default switch case must be the last", 19, 1, 20},
		{"column counts characters not bytes", "let s = \"é\"; let é = 1;", "Unexpected character 'é'", 18, 1, 18},
		{"error on a later line", "fn validate(c) {\n  let x = 1;\n  x +\n}", "Unexpected '}'", 36, 4, 1},
		{"unclosed block", "fn validate(c) {\n  ()", "Expecting '}' to end this block, found end of script", 15, 1, 16},
		{"unclosed paren", "(1 + 2", "Expecting ')' to close the parenthesis, found end of script", 6, 1, 7},
		{"keyword as a name", "let if = 1;", "'if' is a keyword", 4, 1, 5},
		{"assign to an expression", "1 + 2 = 3;", "Expression cannot be assigned to", 6, 1, 7},
		{"bad number", "let x = 12abc;", "Invalid number literal '12abc'", 8, 1, 9},
		{"integer too large", "9223372036854775808", "Integer literal '9223372036854775808' is too large", 0, 1, 1},
		{"Unterminated comment", "/* a /* b */", "Unterminated comment", 0, 1, 1},
		{"unterminated interpolation", "`a ${1 + `", "Unterminated", 9, 1, 10},
		{"this outside a function", "this", "'this' can only be used inside a function", 0, 1, 1},
		{"char literal with two chars", "'ab'", "exactly one character", 0, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.src, 0)
			if err == nil {
				t.Fatal("compiled")
			}
			if !strings.Contains(err.Message, c.msg) {
				t.Fatalf("message %q does not contain %q", err.Message, c.msg)
			}
			if err.Pos != c.pos || err.Line != c.line || err.Column != c.col {
				t.Fatalf("at byte %d line %d col %d, want byte %d line %d col %d", err.Pos, err.Line, err.Column, c.pos, c.line, c.col)
			}
			if want := " (line " + itoa(c.line) + ", position " + itoa(c.col) + ")"; !strings.HasSuffix(err.Error(), want) {
				t.Fatalf("Error() = %q, want suffix %q", err.Error(), want)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestCompileAcceptsWhatRunTimeRejects(t *testing.T) {
	// Rhai resolves names at run time: unknown functions and variables and
	// wrong return types compile (read from Leviath's tests).
	for _, src := range []string{
		"fn validate(c) { #{ valid: true } }",
		"fn validate(c) { open_file(c) }",
		"fn validate(c) { undefined_variable }",
		`import "x" as y; fn validate(c) { () }`,
	} {
		if _, err := Compile(src, 0); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestFunctions(t *testing.T) {
	p, err := Compile("fn a() {}\nfn validate(content) { () }\nprivate fn b(x, y) {}", 0)
	if err != nil {
		t.Fatal(err)
	}
	fs := p.Functions()
	if len(fs) != 3 || fs[1].Name != "validate" || len(fs[1].Params) != 1 || fs[2].Name != "b" || len(fs[2].Params) != 2 {
		t.Fatalf("got %+v", fs)
	}
	if got := p.Source()[fs[1].Pos:fs[1].End]; got != "validate" {
		t.Fatalf("name span covers %q", got)
	}
}
