package analysis

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

// testPass is a language's pass in miniature.
type testPass struct {
	*Pass
	log *[]string
}

type testRule = Rule[*testPass]

func runTest(rules []*testRule) (log []string, codes []string) {
	Run(rules, "f.x", []byte("ab\ncd\n"), func(d diagnostics.Diagnostic) { codes = append(codes, d.Code+"@"+d.Path) },
		func(base *Pass, r *testRule) *testPass { return &testPass{Pass: base, log: &log} })
	return log, codes
}

// TestRunOrderAndResults: requirements run first and once, their results
// reach the rules requiring them, and only the listed rules report.
func TestRunOrderAndResults(t *testing.T) {
	base := &testRule{Name: "base", Run: func(p *testPass) {
		*p.log = append(*p.log, "base")
		p.Export(42)
		p.Report(diagnostics.Diagnostic{Code: "BASE"})
	}}
	var a, b *testRule
	a = &testRule{Name: "a", Requires: []*testRule{base}, Run: func(p *testPass) {
		*p.log = append(*p.log, "a:"+strings.Repeat("x", p.ResultOf(base).(int)/21))
		p.Report(diagnostics.Diagnostic{Code: "A"})
	}}
	b = &testRule{Name: "b", Requires: []*testRule{base, a}, Run: func(p *testPass) {
		*p.log = append(*p.log, "b")
		if p.Line(4) != 2 {
			t.Errorf("Line(4) = %d, want 2", p.Line(4))
		}
	}}
	log, codes := runTest([]*testRule{b})
	if got := strings.Join(log, " "); got != "base a:xx b" {
		t.Errorf("order %q, want %q", got, "base a:xx b")
	}
	if len(codes) != 0 {
		t.Errorf("rules run only as requirements reported %v", codes)
	}
	log, codes = runTest([]*testRule{a, base})
	if got := strings.Join(log, " "); got != "base a:xx" {
		t.Errorf("order %q", got)
	}
	if got := strings.Join(codes, " "); got != "BASE@f.x A@f.x" {
		t.Errorf("reports %q, want both listed rules' with the path filled in", got)
	}
}

func TestValidate(t *testing.T) {
	unknown := "HARN-" + "XXX-999" // not a registered code (spelt so the coverage test does not take it for one)
	doc := "r: does a thing (HARN-CHK-001).\n\nmore\nmore\nmore"
	ok := &testRule{Name: "r", Doc: TextDoc(doc), Codes: []string{"HARN-CHK-001"}}
	if err := Validate([]*testRule{ok}); err != nil {
		t.Errorf("valid rule: %v", err)
	}
	x := &testRule{Name: "x", Doc: TextDoc(strings.Replace(doc, "r:", "x:", 1)), Codes: []string{"HARN-CHK-001"}}
	y := &testRule{Name: "y", Doc: TextDoc(strings.Replace(doc, "r:", "y:", 1)), Codes: []string{"HARN-CHK-001"}, Requires: []*testRule{x}}
	x.Requires = []*testRule{y}
	for _, tc := range []struct {
		rules []*testRule
		want  string
	}{
		{[]*testRule{{Name: "r", Doc: TextDoc("wrong title\n\n\n\n"), Codes: []string{"HARN-CHK-001"}}}, "does not start with the rule name"},
		{[]*testRule{{Name: "r", Doc: TextDoc(doc)}}, "no codes"},
		{[]*testRule{{Name: "r", Doc: TextDoc(doc), Codes: []string{"HARN-CHK-002"}}}, "doc does not mention HARN-CHK-002"},
		{[]*testRule{{Name: "r", Doc: TextDoc("r: " + unknown + "\n\n\n\n"), Codes: []string{unknown}}}, "no explanation page"},
		{[]*testRule{ok, {Name: "r", Doc: TextDoc(doc), Codes: []string{"HARN-CHK-001"}}}, "duplicated"},
		{[]*testRule{y}, "lead back to it"},
	} {
		err := Validate(tc.rules)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate: %v, want %q", err, tc.want)
		}
	}
}

// extractDocLineByLine is ExtractDoc as first written, walking every
// line of the comment: the reference TestExtractDocMatchesLineByLine
// holds ExtractDoc to.
func extractDocLineByLine(src, name string) (string, bool) {
	heading := "# Rule " + name
	var b strings.Builder
	found := false
	for rest, more := src, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if strings.HasPrefix(l, "package ") {
			break
		}
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		t := strings.TrimSpace(l)
		if !found {
			found = t == heading
			continue
		}
		if strings.HasPrefix(t, "# Rule ") {
			break
		}
		b.WriteByte('\n')
		b.WriteString(l)
	}
	return strings.TrimSpace(b.String()), found
}

func TestExtractDocMatchesLineByLine(t *testing.T) {
	srcs := []string{
		"// Package p defines r.\n//\n// # Rule r\n//\n// r: title.\n//\n// Body.\npackage p\n",
		"// # Rule r2\n// r2: second.\n//\n// # Rule r\n// r: first.\n//   indented\n// # Rule r3\n// r3.\npackage p",
		"// text # Rule r\n// not a heading.\n//  # Rule r  \n// r: spaced heading.\n\npackage p\n",
		"// # Rule r\n// r: no package clause, no newline at the end.",
		"// # Rule r",
		"// # Rule x\n// x.\npackage p\n\n// # Rule r\n// after the package clause.\n",
		"package p\n// # Rule r\n",
		"#Rule r\n# Rule r\nr: no comment markers.\n# Rule other\n",
		"// # Rule rr\n// rr: a longer name.\n",
		"",
	}
	for _, src := range srcs {
		for _, name := range []string{"r", "r2", "r3", "x", "rr", "other"} {
			want, ok := extractDocLineByLine(src, name)
			got, panicked := func() (got string, panicked bool) {
				defer func() { panicked = recover() != nil }()
				return ExtractDoc(src, name).Text(), false
			}()
			if panicked == ok || got != want {
				t.Errorf("ExtractDoc(%q, %q) = %q (panicked %v), want %q (found %v)", src, name, got, panicked, want, ok)
			}
		}
	}
}

func TestExtractDoc(t *testing.T) {
	src := "// Package p defines r.\n//\n// # Rule r\n//\n// r: title.\n//\n// Body.\npackage p\n"
	if got := ExtractDoc(src, "r").Text(); got != "r: title.\n\nBody." {
		t.Errorf("ExtractDoc = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing heading must panic")
		}
	}()
	ExtractDoc(src, "other").Text()
}
