package simplify

import (
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

func rule(name, code string, run func(*analysis.Pass)) *analysis.Rule {
	return &analysis.Rule{Name: name, Doc: analysis.ExtractDoc(doc, name), Codes: []string{code}, Run: run}
}

// PointlessComparison is the pointless-comparison rule.
var PointlessComparison = rule("pointless-comparison", "HARN-LNT-031", pointlessComparison)

// InvalidBinaryOpLiteral is the invalid-binary-op-literal rule.
var InvalidBinaryOpLiteral = rule("invalid-binary-op-literal", "HARN-LNT-033", invalidBinaryOpLiteral)

// RedundantNilTernary is the redundant-nil-ternary rule.
var RedundantNilTernary = rule("redundant-nil-ternary", "HARN-LNT-034", redundantNilTernary)

// DuplicateMatchArm is the duplicate-match-arm rule.
var DuplicateMatchArm = rule("duplicate-match-arm", "HARN-LNT-037", duplicateMatchArm)

// compact is the source text of a node with all white space removed, for
// comparing two pieces of syntax.
func compact(p *analysis.Pass, n ast.Node) string {
	return strings.Join(strings.Fields(p.Text(n.Pos())), "")
}

// unparen strips parentheses.
func unparen(e ast.Expr) ast.Expr {
	for {
		x, ok := e.(*ast.Paren)
		if !ok {
			return e
		}
		e = x.X
	}
}

func pointlessComparison(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Binary:
			if n.Op != ast.Equal && n.Op != ast.NotEqual {
				return true
			}
			if !syntax.Pure(n.Left) || !syntax.Pure(n.Right) || compact(p, n.Left) != compact(p, n.Right) {
				return true
			}
			repl := "true"
			if n.Op == ast.NotEqual {
				repl = "false"
			}
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-031", n.Span, "`%s` compares a value with itself: it is always %s", p.Text(n.Span), repl)
			d.Help = "replace the comparison with `" + repl + "`, or compare with the value meant"
			// A float may be NaN, which is not equal to itself.
			t := p.Facts.TypeOf(n.Left)
			d.Fixes = []diagnostics.Fix{{Title: "Replace with `" + repl + "`",
				Edits:  []diagnostics.TextEdit{{Span: analysis.Span(n.Span), NewText: repl}},
				Unsafe: types.IsBasic(t, types.Float) || types.IsGradual(t)}}
			p.Report(d)
		case *ast.If:
			if b, ok := unparen(n.Cond).(*ast.BoolLit); ok {
				d := p.Diag(diagnostics.SourceLint, "HARN-LNT-031", n.Cond.Pos(), "this if condition is always %v", b.Value)
				d.Help = "remove the constant condition, or branch on what was meant"
				p.Report(d)
			}
		}
		return true
	})
}

func invalidBinaryOpLiteral(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		b, ok := n.(*ast.Binary)
		if !ok {
			return true
		}
		switch b.Op {
		case ast.Add, ast.Sub, ast.Mul, ast.Div, ast.Mod:
		default:
			return true
		}
		bad := func(e ast.Expr) bool {
			switch unparen(e).(type) {
			case *ast.BoolLit, *ast.NilLit:
				return true
			}
			return false
		}
		if !bad(b.Left) && !bad(b.Right) {
			return true
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-033", b.Span, "`%s` applied to a boolean or nil literal fails at run time", b.Op)
		d.Help = "convert the value explicitly with to_string(), or use string interpolation"
		if b.Op == ast.Add {
			if fix, ok := interpolate(p, b); ok {
				d.Fixes = []diagnostics.Fix{fix}
			}
		}
		p.Report(d)
		return true
	})
}

// interpolate is the fix turning `"text" + lit` or `lit + "text"` into one
// interpolated string.
func interpolate(p *analysis.Pass, b *ast.Binary) (diagnostics.Fix, bool) {
	str, other, strLeft := b.Left, b.Right, true
	if s, ok := b.Right.(*ast.StringLit); ok && s.Kind == ast.PlainString {
		str, other, strLeft = b.Right, b.Left, false
	}
	s, ok := str.(*ast.StringLit)
	if !ok || s.Kind != ast.PlainString {
		return diagnostics.Fix{}, false
	}
	raw := p.Text(s.Span)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return diagnostics.Fix{}, false
	}
	inner, part := raw[1:len(raw)-1], "${"+p.Text(other.Pos())+"}"
	text := `"` + inner + part + `"`
	if !strLeft {
		text = `"` + part + inner + `"`
	}
	return diagnostics.Fix{Title: "Interpolate into the string", Edits: []diagnostics.TextEdit{{Span: analysis.Span(b.Span), NewText: text}}}, true
}

func redundantNilTernary(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		c, ok := n.(*ast.Conditional)
		if !ok {
			return true
		}
		cond, ok := unparen(c.Cond).(*ast.Binary)
		if !ok || (cond.Op != ast.Equal && cond.Op != ast.NotEqual) {
			return true
		}
		_, rnil := unparen(cond.Right).(*ast.NilLit)
		_, lnil := unparen(cond.Left).(*ast.NilLit)
		var checked ast.Expr
		switch {
		case rnil && !lnil:
			checked = cond.Left
		case lnil && !rnil:
			checked = cond.Right
		default:
			return true
		}
		id, ok := unparen(checked).(*ast.Ident)
		if !ok {
			return true
		}
		same, fallback := c.Else, c.Then
		if cond.Op == ast.NotEqual {
			same, fallback = c.Then, c.Else
		}
		if sid, ok := unparen(same).(*ast.Ident); !ok || sid.Name != id.Name {
			return true
		}
		fb := p.Text(fallback.Pos())
		switch f := unparen(fallback).(type) {
		case *ast.Binary:
			if f.Op.Precedence() <= ast.Coalesce.Precedence() && f.Op != ast.Coalesce {
				fb = "(" + fb + ")"
			}
		case *ast.Conditional, *ast.Pipe, *ast.Range:
			fb = "(" + fb + ")"
		}
		repl := id.Name + " ?? " + fb
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-034", c.Span, "this nil check of `%s` is `%s ?? <fallback>`", id.Name, id.Name)
		d.Help = "write `" + repl + "`"
		d.Fixes = []diagnostics.Fix{{Title: "Replace with `" + repl + "`", Edits: []diagnostics.TextEdit{{Span: analysis.Span(c.Span), NewText: repl}}}}
		p.Report(d)
		return true
	})
}

func duplicateMatchArm(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		m, ok := n.(*ast.Match)
		if !ok {
			return true
		}
		seen := map[string]*ast.MatchArm{}
		for _, arm := range m.Arms {
			if ast.IsNil(arm.Pattern) {
				continue
			}
			key := compact(p, arm.Pattern)
			if !ast.IsNil(arm.Guard) {
				key += " if " + compact(p, arm.Guard)
			}
			if first, dup := seen[key]; dup {
				d := p.Diag(diagnostics.SourceLint, "HARN-LNT-037", arm.Pattern.Pos(), "this arm repeats the pattern of the arm on line %d: it never matches", p.Line(first.Span.Start))
				d.Help = "remove the duplicate arm, or change its pattern"
				d.Related = []diagnostics.Related{{Span: analysis.Span(first.Pattern.Pos()), Message: "the first arm with this pattern"}}
				p.Report(d)
				continue
			}
			seen[key] = arm
		}
		return true
	})
}
