package exhaustive

import (
	_ "embed"

	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const (
	codeMissing     = "HARN-MAT-001"
	codeUnreachable = "HARN-MAT-002"
)

//go:embed doc.go
var doc string

// Rule is the exhaustive rule.
var Rule = &analysis.Rule{
	Name:  "exhaustive",
	Doc:   analysis.ExtractDoc(doc, "exhaustive"),
	Codes: []string{codeMissing, codeUnreachable},
	Run:   run,
}

func lit(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func run(p *analysis.Pass) {
	for _, m := range p.Facts.Matches {
		check(p, m)
	}
}

func check(p *analysis.Pass, m analysis.Match) {
	if m.Node == nil || m.Node.Value == nil {
		return
	}
	values, ok := types.Literals(m.Subject)
	if !ok || len(values) == 0 {
		return
	}
	in := func(v any) bool {
		for _, l := range values {
			if l.Value == v {
				return true
			}
		}
		return false
	}
	covered := map[any]ast.Span{}
	wildcard := false
	for _, arm := range m.Node.Arms {
		if arm == nil || arm.Pattern == nil {
			continue
		}
		if wildcard {
			d := p.Diag(diagnostics.SourceType, codeUnreachable, arm.Pattern.Pos(), "unreachable match arm: an earlier arm matches every value")
			d.Help = "remove this arm or move it before the catch-all arm"
			p.Report(d)
			continue
		}
		lits, all := patternLiterals(arm.Pattern)
		if all {
			if arm.Guard == nil {
				wildcard = true
			}
			continue
		}
		for _, l := range lits {
			if !in(l.value) {
				d := p.Diag(diagnostics.SourceType, codeUnreachable, l.span, "unreachable match arm: %s is not one of the values of %s", lit(l.value), types.Describe(m.Subject))
				d.Help = "match one of " + list(values) + ", or remove the arm"
				p.Report(d)
				continue
			}
			if prev, dup := covered[l.value]; dup {
				d := p.Diag(diagnostics.SourceType, codeUnreachable, l.span, "duplicate match arm: %s is already matched", lit(l.value))
				d.Related = []diagnostics.Related{{Span: analysis.Span(prev), Message: "first matched here"}}
				p.Report(d)
				continue
			}
			if arm.Guard == nil {
				covered[l.value] = l.span
			}
		}
	}
	if wildcard {
		return
	}
	var missing []*types.Literal
	for _, v := range values {
		if _, ok := covered[v.Value]; !ok {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		return
	}
	span := ast.Span{Start: m.Node.Span.Start, End: m.Node.Value.Pos().End}
	d := p.Diag(diagnostics.SourceType, codeMissing, span, "%s", missingMessage(p, m.Node.Value, missing))
	if q := p.Facts.LabelQuestion(m.Subject); q != nil {
		d.Related = analysis.LabelsRelated(q)
	}
	d.Help = "add an arm for each missing value, or a `_ -> { ... }` arm"
	if fix, ok := addArms(p.Src, m.Node, missing); ok {
		d.Fixes = []diagnostics.Fix{fix}
	}
	p.Report(d)
}

// missingMessage words a non-exhaustive match as upstream Harn's checker
// does, by what the matched value is: the variant of an enum value
// (`Non-exhaustive match on enum Action: missing variants "Edit"`), the
// tag of a tagged shape union, or a literal union.
func missingMessage(p *analysis.Pass, value ast.Expr, missing []*types.Literal) string {
	if mem, ok := ast.Unparen(value).(*ast.Member); ok && mem.Name != nil {
		obj := types.StripNil(p.Facts.TypeOf(mem.X))
		if name, ok := enumName(obj); ok && mem.Name.Name == "variant" {
			return fmt.Sprintf("Non-exhaustive match on enum %s: missing variants %s", name, list(missing))
		}
		if tagged(obj, mem.Name.Name) {
			return "Non-exhaustive match on tagged shape union: missing variants " + list(missing)
		}
	}
	return "Non-exhaustive match on literal union: missing " + list(missing)
}

// enumName returns the declared name of an enum value's type: the
// checker types enum values as nominal records with variant and fields.
func enumName(t types.Type) (string, bool) {
	r, ok := types.Unalias(t).(*types.Record)
	if !ok || r.Nominal == "" {
		return "", false
	}
	if _, ok := r.Lookup("variant"); !ok {
		return "", false
	}
	if _, ok := r.Lookup("fields"); !ok {
		return "", false
	}
	return r.Nominal[strings.LastIndexByte(r.Nominal, '.')+1:], true
}

// tagged reports whether t is a union of two or more shapes told apart by
// the literal field name.
func tagged(t types.Type, name string) bool {
	n := 0
	for _, m := range types.Members(t) {
		if !types.IsBasic(m, types.Nil) {
			n++
		}
	}
	_, ok := types.TagValues(t, name)
	return n >= 2 && ok
}

// addArms is the fix that inserts an empty arm for each missing value
// before the match's closing brace. Inserted arms take the indentation of
// the first existing arm that starts its line (else the match line's
// indentation plus one level); the closing brace keeps its own line and
// indentation, or gets a line of its own at the match line's indentation
// when it shared a line with the arms.
func addArms(src []byte, m *ast.Match, missing []*types.Literal) (diagnostics.Fix, bool) {
	end := m.Span.End - 1 // the closing brace
	if end < m.Span.Start || end >= len(src) || src[end] != '}' {
		return diagnostics.Fix{}, false
	}
	matchIndent := indentOf(src, m.Span.Start)
	armIndent := ""
	for _, arm := range m.Arms {
		if arm == nil {
			continue
		}
		if ls := lineStart(src, arm.Span.Start); isBlank(src[ls:arm.Span.Start]) {
			armIndent = string(src[ls:arm.Span.Start])
			break
		}
	}
	if armIndent == "" {
		unit := "  "
		if strings.HasPrefix(matchIndent, "\t") {
			unit = "\t"
		}
		armIndent = matchIndent + unit
	}
	var b strings.Builder
	start := lineStart(src, end)
	ownLine := isBlank(src[start:end])
	if ownLine {
		end = start // insert whole lines before the brace's line
	} else {
		// The brace follows code on its line: replace the blanks before
		// it and give it a line of its own.
		start = end
		for start > m.Span.Start && (src[start-1] == ' ' || src[start-1] == '\t') {
			start--
		}
		b.WriteString("\n")
	}
	for _, l := range missing {
		fmt.Fprintf(&b, "%s%s -> { }\n", armIndent, lit(l.Value))
	}
	if !ownLine {
		b.WriteString(matchIndent)
	}
	edit := diagnostics.TextEdit{Span: diagnostics.Span{Start: start, End: end}, NewText: b.String()}
	return diagnostics.Fix{Title: "Add the missing arms", Edits: []diagnostics.TextEdit{edit}}, true
}

// lineStart returns the offset where the line holding off begins.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' && src[off-1] != '\r' {
		off--
	}
	return off
}

// indentOf returns the leading blanks of the line holding off.
func indentOf(src []byte, off int) string {
	ls := lineStart(src, off)
	i := ls
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func list(ls []*types.Literal) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = lit(l.Value)
	}
	return strings.Join(parts, ", ")
}

type armLit struct {
	value any
	span  ast.Span
}

// patternLiterals returns the literal alternatives of an arm pattern, or
// all when it matches any value.
func patternLiterals(p ast.Pattern) ([]armLit, bool) {
	switch p := p.(type) {
	case *ast.WildcardPattern, *ast.Ident:
		return nil, true
	case *ast.LiteralPattern:
		switch v := p.Value.(type) {
		case *ast.StringLit:
			if s, ok := v.Value(); ok {
				return []armLit{{s, p.Span}}, false
			}
		case *ast.IntLit:
			return []armLit{{v.Value, p.Span}}, false
		case *ast.BoolLit:
			return []armLit{{v.Value, p.Span}}, false
		}
	case *ast.OrPattern:
		var out []armLit
		for _, a := range p.Alternatives {
			ls, all := patternLiterals(a)
			if all {
				return nil, true
			}
			out = append(out, ls...)
		}
		return out, false
	}
	return nil, false
}
