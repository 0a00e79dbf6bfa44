package exhaustive

import (
	_ "embed"

	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/types"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
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
	d := p.Diag(diagnostics.SourceType, codeMissing, span, "match on %s is not exhaustive: missing %s", p.Text(m.Node.Value.Pos()), list(missing))
	if q := p.Facts.LabelQuestion(m.Subject); q != nil {
		d.Related = analysis.LabelsRelated(q)
	}
	d.Help = "add an arm for each missing value, or a `_ -> { ... }` arm"
	var b strings.Builder
	for _, l := range missing {
		fmt.Fprintf(&b, "  %s -> { }\n", lit(l.Value))
	}
	end := m.Node.Span.End - 1 // the closing brace
	if end >= m.Node.Span.Start && end < len(p.Src) && p.Src[end] == '}' {
		d.Fixes = []diagnostics.Fix{{Title: "Add the missing arms", Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: end, End: end}, NewText: b.String()}}}}
	}
	p.Report(d)
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
