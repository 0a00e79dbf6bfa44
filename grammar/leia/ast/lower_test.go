package ast

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/lower/*.golden")

// lowerCase is one hand-built tree (shaped exactly as the corpus of
// grammar/leia expects the parser to produce) with checks on the result.
type lowerCase struct {
	name  string
	tree  *fakeNode
	check func(t *testing.T, f *File)
}

func lowerCases() []lowerCase {
	return []lowerCase{
		{
			name: "declare_binary",
			tree: stmts(decl("x", N("binary_expression",
				F("left", L("integer", "1")), F("operator", "+"),
				F("right", N("binary_expression", F("left", L("integer", "99999999999999999999")), F("operator", "*"), F("right", L("float", "3.5"))))))),
			check: func(t *testing.T, f *File) {
				d := f.Stmts[0].(*DeclareStmt)
				b := d.Right[0].(*BinaryExpr)
				eq(t, "op", b.Op, "+")
				eq(t, "left", b.Left.(*IntLit).Value, int64(1))
				inner := b.Right.(*BinaryExpr)
				eq(t, "inner op", inner.Op, "*")
				eq(t, "bad int ok", inner.Left.(*IntLit).Ok, false)
				eq(t, "float", inner.Right.(*FloatLit).Value, 3.5)
			},
		},
		{
			name: "tool_current",
			tree: stmts(decl("lookup", N("tagged_block", F("tag", I("tool")), F("body", table(
				pair("name", Str("lookup")),
				pair("requires", N("list", "[", F("element", Str("docs.read")), "]")),
				pair("fn", N("function_literal", "func", F("parameters", N("parameters", "(", I("q"), ")")), F("body", N("block", "{", "}")))),
			))))),
			check: func(t *testing.T, f *File) {
				tb := f.Stmts[0].(*DeclareStmt).Right[0].(*TaggedBlock)
				eq(t, "kind", tb.Kind, DialectTool)
				eq(t, "form", tb.Form, FormCurrent)
				name, _ := tb.Body.Lookup("name").Value.(*StringLit).Value()
				eq(t, "name", name, "lookup")
				eq(t, "fn params", len(tb.Body.Lookup("fn").Value.(*FuncLit).Params.Names), 1)
				if tb.Body.Lookup("missing") != nil {
					t.Error("Lookup found a field that is not there")
				}
			},
		},
		{
			name: "tool_legacy",
			tree: stmts(
				L("comment", "// Finds documents."),
				L("directive", "//leia:requires docs.read, net.client"),
				L("directive", "//leia:param query text to search"),
				N("tool_declaration", "tool", F("name", I("find")),
					F("parameters", N("parameters", "(", I("query"), ")")),
					F("body", N("block", "{", N("return_statement", "return", F("values", N("expression_list", I("query"), ",", L("nil", "nil")))), "}"))),
			),
			check: func(t *testing.T, f *File) {
				d := f.Stmts[0].(*ToolDecl)
				eq(t, "name", d.Name.Name, "find")
				eq(t, "requires", d.Requires, []string{"docs.read", "net.client"})
				eq(t, "param docs", d.ParamDocs[0].Name+"|"+d.ParamDocs[0].Text, "query|text to search")
				eq(t, "doc", d.Doc, "Finds documents.")
				eq(t, "directives", len(d.Directives), 2)
				eq(t, "file directives", len(f.FileDirectives), 2)
			},
		},
		{
			name: "tool_legacy_gap",
			tree: stmts(
				L("directive", "//leia:requires far.away"),
				decl("x", L("integer", "1")),
				N("tool_declaration", "tool", F("name", I("near")),
					F("parameters", N("parameters", "(", ")")), F("body", N("block", "{", "}"))),
			),
			check: func(t *testing.T, f *File) {
				d := f.Stmts[1].(*ToolDecl)
				eq(t, "requires", len(d.Requires), 0)
			},
		},
		{
			name: "agent_forms",
			tree: stmts(
				decl("a", N("agent_expression", "agent", F("config", table(pair("name", Str("a")))))),
				decl("b", N("agent_expression", "agent", F("parameters", N("parameters", "(", I("q"), ")")), F("config", table(pair("user", I("q")))))),
				decl("c", N("agent_expression", "agent", F("config", table()), "flow", F("flow", N("block", "{", "}")))),
				N("agent_declaration", "agent", F("name", I("review")), F("parameters", N("parameters", "(", I("topic"), ")")),
					F("config", table(pair("system", Str("Short.")))), "flow", F("flow", N("block", "{", "}"))),
				N("agent_defaults", "agent", "defaults", F("config", table(pair("model", Str("fast"))))),
			),
			check: func(t *testing.T, f *File) {
				forms := []Form{}
				for _, s := range f.Stmts[:3] {
					forms = append(forms, s.(*DeclareStmt).Right[0].(*AgentExpr).Form)
				}
				eq(t, "forms", forms, []Form{FormCurrent, FormLegacy, FormLegacy})
				d := f.Stmts[3].(*AgentDecl)
				eq(t, "decl name", d.Name.Name, "review")
				if d.Flow == nil || d.Params == nil {
					t.Error("agent declaration lost its flow or parameters")
				}
				if f.Stmts[4].(*AgentDefaults).Config.Lookup("model") == nil {
					t.Error("agent defaults lost its model field")
				}
			},
		},
		{
			name: "legacy_blocks",
			tree: stmts(
				N("expression_statement", N("tagged_block", F("tag", I("models")), F("body", table(pair("default", Str("fast")))))),
				decl("h", N("tagged_block", F("tag", I("messages")), F("body", table(pair("system", Str("s")), call(I("extra")))))),
				N("budget_statement",
					F("limits", N("tagged_block", F("tag", I("budget")), F("body", table(pair("turns", L("integer", "1")), pair("time", L("duration", "30s")))))),
					F("body", N("block", "{", "}"))),
			),
			check: func(t *testing.T, f *File) {
				m := f.Stmts[0].(*ExprStmt).X.(*TaggedBlock)
				eq(t, "models", m.Kind.String()+"/"+m.Form.String(), "model/legacy")
				h := f.Stmts[1].(*DeclareStmt).Right[0].(*TaggedBlock)
				eq(t, "messages", h.Kind.String()+"/"+h.Form.String(), "messages/legacy")
				eq(t, "positional", h.Body.Fields[1].Kind, FieldPositional)
				b := f.Stmts[2].(*BudgetStmt)
				eq(t, "budget", b.Limits.Kind, DialectBudget)
				eq(t, "duration", b.Limits.Body.Lookup("time").Value.(*DurationLit).Raw, "30s")
			},
		},
		{
			name: "strings",
			tree: stmts(
				decl("s", N("string", `"`, L("string_content", "a"), L("escape_sequence", `\n`), L("string_content", "b"),
					N("interpolation", "${", F("expression", I("x")), "}"), L("escape_sequence", `\x41`), L("escape_sequence", `\q`), `"`)),
				decl("r", L("raw_string", "`raw ${x}`")),
				decl("f", L("fenced_string", "```fenced```")),
				decl("p", N("tagged_string", F("tag", I("prompt")), F("body", N("template", "`", L("template_content", "Hi "), N("interpolation", "${", F("expression", I("who")), "}"), "`")))),
				decl("sh", N("tagged_string", F("tag", "$"), F("body", N("template", "`", L("template_content", "ls"), "`")))),
			),
			check: func(t *testing.T, f *File) {
				s := f.Stmts[0].(*DeclareStmt).Right[0].(*StringLit)
				eq(t, "parts", len(s.Parts), 3)
				eq(t, "first text", s.Parts[0].Text, "a\nb")
				eq(t, "last text", s.Parts[2].Text, `A\q`)
				if _, ok := s.Value(); ok {
					t.Error("an interpolated string reported a constant value")
				}
				r, ok := f.Stmts[1].(*DeclareStmt).Right[0].(*StringLit).Value()
				eq(t, "raw", r+"|"+boolText(ok), "raw ${x}|true")
				fs, _ := f.Stmts[2].(*DeclareStmt).Right[0].(*StringLit).Value()
				eq(t, "fenced", fs, "fenced")
				p := f.Stmts[3].(*DeclareStmt).Right[0].(*TaggedString)
				eq(t, "prompt kind", p.Kind, DialectPrompt)
				sh := f.Stmts[4].(*DeclareStmt).Right[0].(*TaggedString)
				eq(t, "shell", sh.Kind.String()+"|"+boolText(sh.Tag == nil), "shell|true")
			},
		},
		{
			name: "control_flow",
			tree: stmts(
				N("if_statement", "if", F("condition", I("a")), F("consequence", N("block", "{", "}")),
					F("alternative", N("elseif_clause", "elseif", F("condition", I("b")), F("consequence", N("block", "{", "}")))),
					F("alternative", N("elseif_clause", "else", "if", F("condition", I("c")), F("consequence", N("block", "{", "}")))),
					F("alternative", N("else_clause", "else", F("body", N("block", "{", N("break_statement", "break"), "}"))))),
				N("for_statement", "for", F("body", N("block", "{", "}"))),
				N("for_statement", "for", F("condition", I("ok")), F("body", N("block", "{", "}"))),
				N("for_statement", "for", F("clause", N("for_clause",
					F("initializer", decl("i", L("integer", "0"))), ";",
					F("condition", N("binary_expression", F("left", I("i")), F("operator", "<"), F("right", I("n")))), ";",
					F("update", N("inc_statement", F("operand", I("i")), "++")))), F("body", N("block", "{", "}"))),
				N("for_statement", "for", F("clause", N("range_clause", F("left", N("expression_list", I("k"), ",", I("v"))), ":=", "range", F("right", I("t")))), F("body", N("block", "{", "}"))),
			),
			check: func(t *testing.T, f *File) {
				s := f.Stmts[0].(*IfStmt)
				eq(t, "elseifs", len(s.ElseIfs), 2)
				eq(t, "two words", []bool{s.ElseIfs[0].TwoWords, s.ElseIfs[1].TwoWords}, []bool{false, true})
				if s.Else == nil || len(s.Else.Stmts) != 1 {
					t.Error("else body lost")
				}
				var kinds []ForKind
				for _, st := range f.Stmts[1:] {
					kinds = append(kinds, st.(*ForStmt).Kind)
				}
				eq(t, "for kinds", kinds, []ForKind{ForInfinite, ForCond, ForClause, ForRange})
				eq(t, "range vars", len(f.Stmts[4].(*ForStmt).Vars), 2)
			},
		},
		{
			name: "errors",
			tree: stmts(
				decl("x", N("binary_expression", F("left", I("a")), F("operator", "+"), F("right", Missing("identifier")))),
				Err(I("y"), ":=", "("),
				N("expression_statement"),
			),
			check: func(t *testing.T, f *File) {
				eq(t, "errors", len(f.Errors), 3)
				eq(t, "missing", f.Errors[0].Missing, "identifier")
				eq(t, "error text", f.Errors[1].Text, "y := (")
				if _, ok := f.Stmts[1].(*Error); !ok {
					t.Errorf("ERROR statement lowered to %T", f.Stmts[1])
				}
			},
		},
		{
			name: "evaluate_and_file_directives",
			tree: stmts(
				L("directive", "//leia:build linux,darwin"),
				L("comment", "/* resets */"),
				L("directive", "//leia:cap net.client"),
				N("evaluate_statement", "evaluate", F("name", Str("case one")), F("body", N("block", "{", "}"))),
				N("import_declaration", "import", N("import_spec", F("path", Str("go:net/http")), "as", F("alias", I("http")))),
			),
			check: func(t *testing.T, f *File) {
				eq(t, "file directives", len(f.FileDirectives), 1)
				eq(t, "kind", f.FileDirectives[0].Kind+" "+strings.Join(f.FileDirectives[0].Args, ","), "cap net.client")
				name, _ := f.Stmts[0].(*EvaluateStmt).Name.Value()
				eq(t, "evaluate name", name, "case one")
				spec := f.Stmts[1].(*ImportDecl).Specs[0]
				eq(t, "import", spec.Alias.Name+"|"+boolText(spec.AsForm), "http|true")
			},
		},
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// TestLower lowers each hand-built tree, runs its checks, and compares the
// dump with testdata/lower/NAME.golden (refresh with -update).
func TestLower(t *testing.T) {
	for _, c := range lowerCases() {
		t.Run(c.name, func(t *testing.T) {
			src := build(c.tree)
			f := Lower(c.tree, src)
			c.check(t, f)
			checkSpans(t, f, len(src))
			got := "-- source --\n" + string(src) + "\n-- ast --\n" + Dump(f)
			path := filepath.Join("testdata", "lower", c.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("dump differs from %s:\n%s", path, got)
			}
		})
	}
}

// checkSpans requires every span in the file to lie inside the source and
// every child's span inside its parent's. Directives are references to
// comments outside the node (a legacy tool's lines above it) and are
// checked only against the source.
func checkSpans(t *testing.T, f *File, n int) {
	t.Helper()
	var walk func(v reflect.Value, parent Span)
	walk = func(v reflect.Value, parent Span) {
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), parent)
			}
		case reflect.Struct:
			sp := parent
			if s, ok := v.Addr().Interface().(interface{ Pos() Span }); ok {
				sp = s.Pos()
				if sp.Start < 0 || sp.End > n || sp.Start > sp.End {
					t.Errorf("%s span %v outside source of %d bytes", v.Type().Name(), sp, n)
				}
				if v.Type() == reflect.TypeOf(Directive{}) {
					return
				}
				if sp.Start < parent.Start || sp.End > parent.End {
					t.Errorf("%s span %v outside its parent %v", v.Type().Name(), sp, parent)
				}
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() && v.Type().Field(i).Type != reflect.TypeOf(Span{}) {
					walk(v.Field(i), sp)
				}
			}
		}
	}
	walk(reflect.ValueOf(f.Stmts), f.Span)
}

// TestLowerNilAndEmpty covers the degenerate inputs.
func TestLowerNilAndEmpty(t *testing.T) {
	f := Lower(nil, nil)
	if len(f.Errors) != 1 || f.Errors[0].Missing != "source_file" {
		t.Errorf("Lower(nil) errors = %+v", f.Errors)
	}
	root := stmts()
	src := build(root)
	f = Lower(root, src)
	if len(f.Stmts) != 0 || len(f.Errors) != 0 {
		t.Errorf("empty file lowered to %d statements, %d errors", len(f.Stmts), len(f.Errors))
	}
}

// TestClassifyTag pins the tag table the checker relies on.
func TestClassifyTag(t *testing.T) {
	cases := []struct {
		tag  string
		kind DialectKind
		form Form
	}{
		{"model", DialectModel, FormCurrent},
		{"models", DialectModel, FormLegacy},
		{"tool", DialectTool, FormCurrent},
		{"turn", DialectTurn, FormCurrent},
		{"agent", DialectAgent, FormCurrent},
		{"prompt", DialectPrompt, FormCurrent},
		{"messages", DialectMessages, FormLegacy},
		{"budget", DialectBudget, FormLegacy},
		{"quote", DialectQuote, FormCurrent},
		{"sh", DialectShell, FormCurrent},
		{"duration", DialectGeneric, FormCurrent},
	}
	for _, c := range cases {
		k, f := ClassifyTag(c.tag)
		if k != c.kind || f != c.form {
			t.Errorf("ClassifyTag(%q) = %v, %v; want %v, %v", c.tag, k, f, c.kind, c.form)
		}
	}
}

// TestDecodeEscape covers every escape form, including the lenient ones.
func TestDecodeEscape(t *testing.T) {
	cases := map[string]string{
		`\n`: "\n", `\t`: "\t", `\a`: "\a", `\b`: "\b", `\f`: "\f", `\r`: "\r", `\v`: "\v",
		`\\`: `\`, `\"`: `"`, `\'`: `'`, `\x41`: "A", `\u00e9`: "é", `\U0001F600`: "😀",
		`\65`: "A", `\0`: "\x00", `\255`: "\xff", `\256`: `\256`, `\q`: `\q`, `\uD800`: `\uD800`,
	}
	for in, want := range cases {
		if got := decodeEscape(in); got != want {
			t.Errorf("decodeEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParseDirective pins how directive lines split.
func TestParseDirective(t *testing.T) {
	cases := []struct{ text, prefix, kind, rest, args string }{
		{"//leia:requires docs.read, net.client", "leia", "requires", "docs.read, net.client", "docs.read|net.client"},
		{"//leia:test", "leia", "test", "", ""},
		{"//gscript:param q\tthe query", "gscript", "param", "q\tthe query", "q|the|query"},
		{"//leia:build\tlinux", "leia", "build", "linux", "linux"},
	}
	for _, c := range cases {
		d := parseDirective(Span{}, c.text)
		got := d.Prefix + "/" + d.Kind + "/" + d.Rest + "/" + strings.Join(d.Args, "|")
		want := c.prefix + "/" + c.kind + "/" + c.rest + "/" + c.args
		if got != want {
			t.Errorf("parseDirective(%q) = %q, want %q", c.text, got, want)
		}
	}
}
