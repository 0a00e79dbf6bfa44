package simplify

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

//go:embed doc.go
var doc string

// ComparisonToBool is the comparison-to-bool rule.
var ComparisonToBool = &analysis.Rule{
	Name:  "comparison-to-bool",
	Doc:   analysis.ExtractDoc(doc, "comparison-to-bool"),
	Codes: []string{"HARN-LNT-032"},
	Run:   comparisonToBool,
}

func comparisonToBool(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		b, ok := n.(*ast.Binary)
		if !ok || (b.Op != ast.Equal && b.Op != ast.NotEqual) {
			return true
		}
		lit, other := boolLit(b.Right), b.Left
		if lit == nil {
			lit, other = boolLit(b.Left), b.Right
		}
		if lit == nil || boolLit(other) != nil {
			return true
		}
		keep := (b.Op == ast.Equal) == lit.Value
		var msg, repl string
		text := p.Text(other.Pos())
		if keep {
			msg, repl = "`%s %s` is redundant: use the expression itself", text
		} else {
			msg, repl = "`%s %s` is a negation: write `!expr`", "!"+Atom(other, text)
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-032", b.Span, msg, b.Op, p.Text(lit.Span))
		d.Help = "replace it with `" + repl + "`"
		d.Fixes = []diagnostics.Fix{{
			Title:  "Replace with `" + repl + "`",
			Edits:  []diagnostics.TextEdit{{Span: analysis.Span(b.Span), NewText: repl}},
			Unsafe: !isBool(p.Facts.TypeOf(other)),
		}}
		p.Report(d)
		return true
	})
}

// boolLit returns e as a boolean literal (through parentheses), or nil.
func boolLit(e ast.Expr) *ast.BoolLit {
	for {
		switch x := e.(type) {
		case *ast.BoolLit:
			return x
		case *ast.Paren:
			e = x.X
		default:
			return nil
		}
	}
}

// isBool reports whether t is exactly bool (not nil-able, not any).
func isBool(t types.Type) bool { return types.IsBasic(t, types.Bool) }

// Atom returns text, the source of e, wrapped in parentheses unless e
// binds tighter than a prefix operator (a name, literal, call, member,
// index or parenthesised expression), so that `!` or a suffix applies to
// all of it.
func Atom(e ast.Expr, text string) string {
	switch e.(type) {
	case *ast.Ident, *ast.Call, *ast.Member, *ast.Index, *ast.Paren, *ast.IntLit, *ast.FloatLit,
		*ast.StringLit, *ast.BoolLit, *ast.NilLit, *ast.ListLit, *ast.DictLit, *ast.Slice:
		return text
	}
	return "(" + text + ")"
}
