package layout

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// BlankLineBetweenItems is the blank-line-between-items rule.
var BlankLineBetweenItems = &analysis.Rule{
	Name:  "blank-line-between-items",
	Doc:   analysis.ExtractDoc(doc, "blank-line-between-items"),
	Codes: []string{"HARN-LNT-041"},
	Run:   blankLines,
}

// TrailingComma is the trailing-comma rule.
var TrailingComma = &analysis.Rule{
	Name:  "trailing-comma",
	Doc:   analysis.ExtractDoc(doc, "trailing-comma"),
	Codes: []string{"HARN-LNT-042"},
	Run:   trailingComma,
}

// ImportOrder is the import-order rule.
var ImportOrder = &analysis.Rule{
	Name:  "import-order",
	Doc:   analysis.ExtractDoc(doc, "import-order"),
	Codes: []string{"HARN-LNT-047"},
	Run:   importOrder,
}

// topLevelItem reports whether a top-level statement is an item the
// blank-line rule separates.
func topLevelItem(n ast.Node) bool {
	switch n.(type) {
	case *ast.FuncDecl, *ast.Pipeline, *ast.StructDecl, *ast.EnumDecl, *ast.InterfaceDecl,
		*ast.TypeAlias, *ast.ToolDecl, *ast.SkillDecl, *ast.EvalPackDecl, *ast.ImplDecl,
		*ast.Override, *ast.VarDecl, *ast.Import:
		return true
	}
	return false
}

// ownLineComments maps the last line of each comment that starts its
// line to the comment's first line (0-based lines).
func ownLineComments(p *analysis.Pass) map[int]int {
	li := p.Lines()
	out := map[int]int{}
	for _, c := range p.File.Comments {
		first := li.Line(c.Span.Start)
		if strings.TrimSpace(string(p.Src[li.LineStart(first):c.Span.Start])) != "" {
			continue
		}
		out[li.Line(max(c.Span.End-1, c.Span.Start))] = first
	}
	return out
}

func blankLines(p *analysis.Pass) {
	items := p.File.Items
	if len(items) < 2 {
		return
	}
	li := p.Lines()
	comments := ownLineComments(p)
	for i := 1; i < len(items); i++ {
		prev, next := items[i-1], items[i]
		_, prevImport := prev.(*ast.Import)
		_, nextImport := next.(*ast.Import)
		if (prevImport && nextImport) || !topLevelItem(prev) || !topLevelItem(next) {
			continue
		}
		ps, ns := prev.Pos(), next.Pos()
		if ps.End <= ps.Start || ns.Start < ps.End {
			continue
		}
		prevEnd := li.Line(ps.End - 1)
		first := li.Line(ns.Start)
		if first <= prevEnd {
			continue // on the same line: not this rule's business
		}
		for {
			up, ok := comments[first-1]
			if !ok || up <= prevEnd {
				break
			}
			first = up
		}
		if first > prevEnd+1 {
			continue
		}
		at := li.LineStart(prevEnd + 1)
		d := p.New(diagnostics.SourceLint, "HARN-LNT-041", diagnostics.Span{Start: at, End: at}, "no blank line between top-level items")
		d.Help = "insert an empty line before the next item (its comments stay with it)"
		d.Fixes = []diagnostics.Fix{{
			Title: "Insert a blank line",
			Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: at, End: at}, NewText: "\n"}},
		}}
		p.Report(d)
	}
}

// masked returns the source with the inside of every string literal and
// every comment blanked (line breaks kept); a string keeps a `"` at each
// end so that it still reads as one token.
func masked(p *analysis.Pass) []byte {
	m := slices.Clone(p.Src)
	blank := func(s ast.Span, quote bool) {
		if s.Start < 0 || s.End > len(m) || s.End <= s.Start {
			return
		}
		for i := s.Start; i < s.End; i++ {
			if m[i] != '\n' && m[i] != '\r' {
				m[i] = ' '
			}
		}
		if quote {
			m[s.Start], m[s.End-1] = '"', '"'
		}
	}
	for _, c := range p.File.Comments {
		blank(c.Span, false)
	}
	ast.Inspect(p.File, func(n ast.Node) bool {
		if s, ok := n.(*ast.StringLit); ok {
			blank(s.Span, true)
			return false
		}
		return true
	})
	return m
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

func trailingComma(p *analysis.Pass) {
	m := masked(p)
	li := p.Lines()
	type frame struct {
		open                byte
		line                int
		comma, eligible     bool
		decided, pendingKey bool
	}
	var stack []*frame
	top := func() *frame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	undecidedBrace := func() *frame {
		if f := top(); f != nil && f.open == '{' && !f.decided {
			return f
		}
		return nil
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '(' || c == '[':
			stack = append(stack, &frame{open: c, line: li.Line(i), eligible: true, decided: true})
		case c == '{':
			stack = append(stack, &frame{open: c, line: li.Line(i)})
		case c == ')' || c == ']' || c == '}':
			f := top()
			if f == nil {
				continue
			}
			stack = stack[:len(stack)-1]
			if f.open != map[byte]byte{')': '(', ']': '[', '}': '{'}[c] || !f.eligible || !f.comma || li.Line(i) <= f.line {
				continue
			}
			j := i - 1
			for j >= 0 && (m[j] == ' ' || m[j] == '\t' || m[j] == '\n' || m[j] == '\r') {
				j--
			}
			if j < 0 || m[j] == ',' || m[j] == f.open {
				continue
			}
			at := j + 1
			d := p.New(diagnostics.SourceLint, "HARN-LNT-042", diagnostics.Span{Start: at, End: at}, "no trailing comma after the last item of a list written over several lines")
			d.Help = "add a comma after the last item"
			d.Fixes = []diagnostics.Fix{{
				Title: "Add a trailing comma",
				Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: at, End: at}, NewText: ","}},
			}}
			p.Report(d)
		case c == ',':
			if f := top(); f != nil {
				f.comma = true
			}
		case c == ':':
			if f := undecidedBrace(); f != nil && f.pendingKey {
				f.eligible, f.decided = true, true
			}
		case c == '-' && i+1 < len(m) && m[i+1] == '>':
			// `{ x: int, y: int -> ... }` is a closure, not a dict.
			if f := top(); f != nil && f.open == '{' {
				f.eligible, f.decided = false, true
			}
			i++
		case c == '"' || isIdentByte(c, true):
			if c != '"' {
				for i+1 < len(m) && isIdentByte(m[i+1], false) {
					i++
				}
			}
			if f := undecidedBrace(); f != nil {
				f.pendingKey = true
			}
		default:
			if f := undecidedBrace(); f != nil {
				f.decided = true
			}
		}
	}
}

// importKey is the canonical sort key of an import.
type importKey struct {
	notStd    bool
	path      string
	selective bool
	names     string
}

func keyOf(im *ast.Import) importKey {
	var path string
	if im.Source != nil {
		path, _ = syntax.StringValue(im.Source)
	} else {
		var parts []string
		for _, id := range im.Path {
			parts = append(parts, id.Name)
		}
		path = strings.Join(parts, "::")
	}
	var names []string
	for _, id := range im.Names {
		names = append(names, id.Name)
	}
	slices.Sort(names)
	return importKey{
		notStd:    !strings.HasPrefix(path, "std/") && !strings.HasPrefix(path, "std::"),
		path:      path,
		selective: im.Names != nil,
		names:     strings.Join(names, ","),
	}
}

func (a importKey) compare(b importKey) int {
	switch {
	case a.notStd != b.notStd:
		if a.notStd {
			return 1
		}
		return -1
	case a.path != b.path:
		return strings.Compare(a.path, b.path)
	case a.selective != b.selective:
		if a.selective {
			return 1
		}
		return -1
	}
	return strings.Compare(a.names, b.names)
}

func importOrder(p *analysis.Pass) {
	var imports []*ast.Import
	for _, it := range p.File.Items {
		im, ok := it.(*ast.Import)
		if !ok {
			break
		}
		imports = append(imports, im)
	}
	if len(imports) < 2 {
		return
	}
	sorted := slices.Clone(imports)
	slices.SortStableFunc(sorted, func(a, b *ast.Import) int { return keyOf(a).compare(keyOf(b)) })
	if slices.Equal(sorted, imports) {
		return
	}
	span := diagnostics.Span{Start: imports[0].Span.Start, End: imports[len(imports)-1].Span.End}
	d := p.New(diagnostics.SourceLint, "HARN-LNT-047", span, "imports are not in canonical order (std/ first, then by path)")
	d.Help = "order them: std/ modules first, then other paths alphabetically, a module's whole import before its selective one"
	for i, im := range sorted {
		if im != imports[i] {
			d.Related = []diagnostics.Related{{Span: analysis.Span(imports[i].Span), Message: "expected " + p.Text(im.Span) + " here"}}
			break
		}
	}
	commented := slices.ContainsFunc(p.File.Comments, func(c *ast.Comment) bool {
		return c.Span.Start >= span.Start && c.Span.Start < span.End
	})
	if !commented {
		var texts []string
		for _, im := range sorted {
			texts = append(texts, p.Text(im.Span))
		}
		d.Fixes = []diagnostics.Fix{{
			Title: "Sort the imports",
			Edits: []diagnostics.TextEdit{{Span: span, NewText: strings.Join(texts, "\n")}},
		}}
	}
	p.Report(d)
}
