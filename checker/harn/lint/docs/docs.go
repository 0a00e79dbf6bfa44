package docs

import (
	_ "embed"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// MissingHarndoc is the missing-harndoc rule.
var MissingHarndoc = &analysis.Rule{
	Name:  "missing-harndoc",
	Doc:   analysis.ExtractDoc(doc, "missing-harndoc"),
	Codes: []string{"HARN-LNT-024"},
	Run:   missingHarndoc,
}

// LegacyDocComment is the legacy-doc-comment rule.
var LegacyDocComment = &analysis.Rule{
	Name:  "legacy-doc-comment",
	Doc:   analysis.ExtractDoc(doc, "legacy-doc-comment"),
	Codes: []string{"HARN-LNT-049"},
	Run:   legacyDocComment,
}

// RequireFileHeader is the require-file-header rule.
var RequireFileHeader = &analysis.Rule{
	Name:  "require-file-header",
	Doc:   analysis.ExtractDoc(doc, "require-file-header"),
	Codes: []string{"HARN-LNT-045"},
	Run:   requireFileHeader,
	OptIn: true,
}

// ownLine reports whether comment c is the first text on its line.
func ownLine(p *analysis.Pass, c *ast.Comment) bool {
	li := p.Lines()
	start := li.LineStart(li.Line(c.Span.Start))
	return strings.TrimSpace(string(p.Src[start:c.Span.Start])) == ""
}

// docText returns the text of a `/** */` comment without its markers and
// leading stars, trimmed.
func docText(c *ast.Comment) string {
	body := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/**"), "*/")
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		lines = append(lines, l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// commentEndingAbove returns the comment that ends on the line above
// offset off and is alone there, or nil.
func commentEndingAbove(p *analysis.Pass, off int) *ast.Comment {
	li := p.Lines()
	line := li.Line(off)
	if line == 0 {
		return nil
	}
	for _, c := range p.File.Comments {
		if c.Span.End <= off && li.Line(max(c.Span.End-1, c.Span.Start)) == line-1 && ownLine(p, c) {
			return c
		}
	}
	return nil
}

func missingHarndoc(p *analysis.Pass) {
	check := func(fn *ast.FuncDecl) {
		if !fn.Pub || fn.Name == nil {
			return
		}
		if c := commentEndingAbove(p, fn.Span.Start); c != nil && c.Block && c.Doc() && docText(c) != "" {
			return
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-024", fn.Name.Span, "public function `%s` has no `/** */` doc comment", fn.Name.Name)
		d.Help = "write a `/** ... */` block directly above `pub fn " + fn.Name.Name + "` saying what it does and returns"
		p.Report(d)
	}
	for _, it := range p.File.Items {
		switch x := it.(type) {
		case *ast.FuncDecl:
			check(x)
		case *ast.ImplDecl:
			for _, m := range x.Methods {
				check(m)
			}
		}
	}
}

// documentable reports whether n is a declaration a doc comment describes,
// and whether it is public.
func documentable(n ast.Node) (ok, pub bool) {
	switch x := n.(type) {
	case *ast.FuncDecl:
		return true, x.Pub
	case *ast.Pipeline:
		return true, x.Pub
	case *ast.StructDecl:
		return true, x.Pub
	case *ast.EnumDecl:
		return true, x.Pub
	case *ast.ToolDecl:
		return true, x.Pub
	case *ast.SkillDecl:
		return true, x.Pub
	case *ast.EvalPackDecl:
		return true, x.Pub
	case *ast.InterfaceDecl, *ast.ImplDecl, *ast.TypeAlias, *ast.Override:
		return true, true
	}
	return false, false
}

// body returns the statements directly inside a declaration that may
// hold nested declarations.
func body(n ast.Node) []ast.Stmt {
	switch x := n.(type) {
	case *ast.FuncDecl:
		if x.Body != nil {
			return x.Body.Stmts
		}
	case *ast.Pipeline:
		if x.Body != nil {
			return x.Body.Stmts
		}
	case *ast.Override:
		if x.Body != nil {
			return x.Body.Stmts
		}
	case *ast.ToolDecl:
		return x.Body
	case *ast.EvalPackDecl:
		return x.Body
	case *ast.ImplDecl:
		var out []ast.Stmt
		for _, m := range x.Methods {
			out = append(out, m)
		}
		return out
	}
	return nil
}

func legacyDocComment(p *analysis.Pass) {
	li := p.Lines()
	// byLine maps a line to the own-line line comment on it.
	byLine := map[int]*ast.Comment{}
	for _, c := range p.File.Comments {
		if !c.Block && ownLine(p, c) {
			byLine[li.Line(c.Span.Start)] = c
		}
	}
	if len(byLine) == 0 {
		return
	}
	var visit func(n ast.Node, top bool, depth int)
	visit = func(n ast.Node, top bool, depth int) {
		if depth > ast.MaxDepth {
			return
		}
		if ok, pub := documentable(n); ok && (top || pub) {
			legacyAbove(p, n, byLine)
		}
		for _, s := range body(n) {
			visit(s, false, depth+1)
		}
	}
	for _, it := range p.File.Items {
		visit(it, true, 0)
	}
}

// legacyAbove reports the line comments directly above declaration n.
func legacyAbove(p *analysis.Pass, n ast.Node, byLine map[int]*ast.Comment) {
	li := p.Lines()
	var block []*ast.Comment
	for line := li.Line(n.Pos().Start) - 1; line >= 0; line-- {
		c, ok := byLine[line]
		if !ok {
			break
		}
		block = append([]*ast.Comment{c}, block...)
	}
	if len(block) == 0 {
		return
	}
	doc, plain := false, false
	var lines []string
	for _, c := range block {
		text := c.Text
		if strings.HasPrefix(text, "///") {
			doc = true
			text = text[3:]
		} else {
			plain = true
			text = strings.TrimPrefix(text, "//")
		}
		lines = append(lines, strings.TrimRight(strings.TrimPrefix(text, " "), " \t\r"))
	}
	kind := "`///`"
	switch {
	case doc && plain:
		kind = "`//` and `///`"
	case plain:
		kind = "`//`"
	}
	first, last := block[0], block[len(block)-1]
	lineStart := li.LineStart(li.Line(first.Span.Start))
	indent := string(p.Src[lineStart:first.Span.Start])
	span := diagnostics.Span{Start: first.Span.Start, End: last.Span.End}
	d := p.New(diagnostics.SourceLint, "HARN-LNT-049", span, "%s comment above a declaration: doc comments are `/** */` blocks", kind)
	d.Help = "rewrite it as a `/** ... */` block"
	d.Fixes = []diagnostics.Fix{{
		Title: "Rewrite as a /** */ block",
		Edits: []diagnostics.TextEdit{{Span: span, NewText: strings.TrimPrefix(docBlock(lines, indent, 100), indent)}},
	}}
	p.Report(d)
}

// docBlock renders lines as a `/** */` comment indented by indent: one
// line when there is one line of text and it fits in width, otherwise a
// line per text line with ` * ` in front. Blank lines at either end are
// dropped.
func docBlock(lines []string, indent string, width int) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	switch {
	case len(lines) == 0:
		return indent + "/** */"
	case len(lines) == 1:
		if one := indent + "/** " + strings.TrimSpace(lines[0]) + " */"; len(one) <= width {
			return one
		}
	}
	var b strings.Builder
	b.WriteString(indent + "/**")
	for _, l := range lines {
		b.WriteString("\n" + indent + " *")
		if strings.TrimSpace(l) != "" {
			b.WriteString(" " + l)
		}
	}
	b.WriteString("\n" + indent + " */")
	return b.String()
}

func requireFileHeader(p *analysis.Pass) {
	src := string(p.Src)
	at := 0
	if strings.HasPrefix(src, "#!") {
		if nl := strings.IndexByte(src, '\n'); nl >= 0 {
			at = nl + 1
		} else {
			at = len(src)
		}
	}
	if strings.HasPrefix(strings.TrimLeft(src[at:], " \t\r\n"), "/**") {
		return
	}
	title := HeaderTitle(p.Path)
	d := p.New(diagnostics.SourceLint, "HARN-LNT-045", diagnostics.Span{Start: at, End: at}, "the file does not start with a `/** */` header")
	d.Help = "start the file with a `/** ... */` block saying what it is for"
	d.Fixes = []diagnostics.Fix{{
		Title: "Insert a file header",
		Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: at, End: at}, NewText: "/**\n * " + title + "\n */\n\n"}},
	}}
	p.Report(d)
}

// HeaderTitle derives a header title from a file's path: its base name
// without extension, dashes and underscores as spaces, the first letter
// upper-case and the rest lower-case, ending with a full stop; "Module."
// when nothing is left.
func HeaderTitle(path string) string {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(stem))
	t := strings.ToLower(strings.Join(words, " "))
	if t == "" || t == "." {
		t = "module"
	}
	t = strings.ToUpper(t[:1]) + t[1:]
	if !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, "!") && !strings.HasSuffix(t, "?") {
		t += "."
	}
	return t
}
