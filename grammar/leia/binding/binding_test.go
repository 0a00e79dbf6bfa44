package binding

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

func examples(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "leia", "*.leia"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Leia examples: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// TestExamplesParseClean parses every example: no syntax diagnostics, no
// Error nodes, and at least one statement.
func TestExamplesParseClean(t *testing.T) {
	for name, src := range examples(t) {
		f, diags := Parse(name, src)
		if len(diags) > 0 || len(f.Errors) > 0 {
			t.Errorf("%s: %d diagnostics (%v), %d error nodes", name, len(diags), diags, len(f.Errors))
		}
		if len(f.Stmts) == 0 {
			t.Errorf("%s: no statements", name)
		}
	}
}

// TestSyntaxDiagnostics pins the LEIA1001 messages for typical mistakes.
func TestSyntaxDiagnostics(t *testing.T) {
	cases := []struct {
		src, want string
		at        int
	}{
		{"x := (y = 2)\n", "unexpected `=`", 8},
		{"func f() {\n  return 1\n", "`{` is never closed", 9},
		{"s := \"abc\n", "missing `\"`", -1},
		{"total := a +\n", "missing identifier", 12},
		{"x := 1 @ 2\n", "unexpected `@`", 7},
		{"x := [1, 2\n", "missing `]`", -1},
		{"f(a b)\n", "unexpected `b`, expected `)` or `,`", 4},
		{"x = = 2\n", "unexpected `=`", 4},
		{"n := 1name\n", "malformed number literal `1name`", 5},
		{"n := 1__2\n", "malformed number literal `1__2`", 5},
		{"n := f(1e_2)\n", "malformed number literal `1e_2`", 7},
	}
	for _, c := range cases {
		_, diags := Parse("t.leia", []byte(c.src))
		if len(diags) == 0 {
			t.Errorf("%q: no diagnostics", c.src)
			continue
		}
		d := diags[0]
		if d.Code != SyntaxCode || !strings.Contains(d.Message, c.want) {
			t.Errorf("%q: got %s %q, want %s containing %q", c.src, d.Code, d.Message, SyntaxCode, c.want)
		}
		if c.at >= 0 && d.Span.Start != c.at {
			t.Errorf("%q: diagnostic at %d, want %d", c.src, d.Span.Start, c.at)
		}
	}
}

// TestMalformedNumberIsOneError checks that a number run into a name is
// one diagnostic with help, and that the statement around it still parses
// (the name is not read as a second statement).
func TestMalformedNumberIsOneError(t *testing.T) {
	file, diags := Parse("t.leia", []byte("x := 1name + 2\ny := 3\n"))
	if len(diags) != 1 || diags[0].Help == "" {
		t.Fatalf("got %v, want one diagnostic with help", diags)
	}
	if len(file.Stmts) != 2 {
		t.Fatalf("got %d statements, want 2:\n%s", len(file.Stmts), ast.Dump(file))
	}
	for _, ok := range []string{"x := 1_000 + 0xff_ff + 2.5e-3 + 1e+5 + 30s\n", "r := 1..2\n", "f := 1.5\n"} {
		if _, diags := Parse("t.leia", []byte(ok)); len(diags) != 0 {
			t.Errorf("%q: unexpected %v", ok, diags)
		}
	}
}

// TestQueriesRunOverExamples compiles every query against the language
// and runs it over every example; highlights must capture something in
// each file.
func TestQueriesRunOverExamples(t *testing.T) {
	qfiles, err := filepath.Glob(filepath.Join("..", "queries", "*.scm"))
	if err != nil || len(qfiles) == 0 {
		t.Fatalf("no queries: %v", err)
	}
	srcs := examples(t)
	for _, qf := range qfiles {
		text, err := os.ReadFile(qf)
		if err != nil {
			t.Fatal(err)
		}
		q, qerr := sitter.NewQuery(Language(), string(text))
		if qerr != nil {
			t.Errorf("%s: %v", qf, qerr)
			continue
		}
		for name, src := range srcs {
			tree := ParseTree(src, nil)
			qc := sitter.NewQueryCursor()
			caps := qc.Captures(q, tree.RootNode(), src)
			n := 0
			for m, _ := caps.Next(); m != nil; m, _ = caps.Next() {
				n++
			}
			qc.Close()
			tree.Close()
			if strings.HasSuffix(qf, "highlights.scm") && n == 0 {
				t.Errorf("%s captured nothing in %s", qf, name)
			}
		}
		q.Close()
	}
}

// FuzzParse parses and lowers arbitrary input: no panic, every Error node
// inside the source, and diagnostics exactly when the tree has errors.
func FuzzParse(f *testing.F) {
	for _, src := range []string{"x := 1\n", "tool find(q) { return q }\n", "model { a: os.getenv(\"K\") }\n", "x := \"${", "{agent{}"} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := Parse("fuzz.leia", src)
		if (len(diags) > 0) != (len(file.Errors) > 0) {
			t.Fatalf("%d diagnostics but %d error nodes for %q", len(diags), len(file.Errors), src)
		}
		for _, e := range file.Errors {
			if e.Start < 0 || e.End > len(src) || e.Start > e.End {
				t.Fatalf("error span %v outside %d bytes", e.Span, len(src))
			}
		}
		_ = ast.Dump(file)
	})
}

// TestSnapshotMatchesLiveTree lowers every example twice, from the live
// tree and from its Go snapshot, and requires identical ASTs.
func TestSnapshotMatchesLiveTree(t *testing.T) {
	for name, src := range examples(t) {
		tree := ParseTree(src, nil)
		live := ast.Dump(ast.Lower(Wrap(tree.RootNode()), src))
		snap := ast.Dump(ast.Lower(Snapshot(tree.RootNode()), src))
		tree.Close()
		if live != snap {
			t.Errorf("%s: snapshot lowering differs from the live tree", name)
		}
	}
}

// TestGaveUp pins the result for a parse that ran out of its budget: one
// Error over the whole file and one LEIA1001 diagnostic saying so, which
// keeps "diagnostics exactly when there are errors" true.
func TestGaveUp(t *testing.T) {
	src := []byte("x := 1\n")
	f, diags := gaveUp("t.leia", src)
	if len(f.Errors) != 1 || f.Errors[0].Start != 0 || f.Errors[0].End != len(src) {
		t.Errorf("errors = %+v, want one covering %d bytes", f.Errors, len(src))
	}
	if len(diags) != 1 || diags[0].Code != SyntaxCode || !strings.Contains(diags[0].Message, "gave up") {
		t.Errorf("diagnostics = %+v", diags)
	}
}

// TestUnclosedBracket pins the bracket scan behind "is never closed":
// brackets inside strings, raw strings and comments do not count.
func TestUnclosedBracket(t *testing.T) {
	cases := []struct {
		text string
		at   int
		ok   bool
	}{
		{"f() {", 4, true},
		{"a[{}](", 5, true},
		{"x := \"{\"", 0, false},
		{"x := `{` + '{'", 0, false},
		{"// {\nx", 0, false},
		{"/* { */ (", 8, true},
		{"/* { ", 0, false},
		{"{ } ( )", 0, false},
		{"{ ( }", 2, true},
	}
	for _, c := range cases {
		at, ok := unclosedBracket([]byte(c.text))
		if ok != c.ok || (ok && at != c.at) {
			t.Errorf("unclosedBracket(%q) = %d, %v; want %d, %v", c.text, at, ok, c.at, c.ok)
		}
	}
}
