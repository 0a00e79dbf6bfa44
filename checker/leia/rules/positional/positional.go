package positional

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const code = "LEIA2001"

//go:embed doc.go
var doc string

// Rule is the positional rule.
var Rule = &analysis.Rule{
	Name:  "positional",
	Doc:   analysis.ExtractDoc(doc, "positional"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	exempt := map[*ast.TableExpr]bool{}
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TaggedBlock:
			exempt[x.Body] = true
		case *ast.AgentDecl:
			exempt[x.Config] = true
		case *ast.AgentExpr:
			if x.Form == ast.FormLegacy {
				exempt[x.Config] = true
			}
		case *ast.AgentDefaults:
			exempt[x.Config] = true
		case *ast.DenseArray:
			exempt[x.Body] = true
		case *ast.TableExpr:
			if !exempt[x] {
				check(p, x)
			}
		}
		return true
	})
}

func check(p *analysis.Pass, t *ast.TableExpr) {
	positional, keyed := 0, 0
	for _, f := range t.Fields {
		if f.Kind == ast.FieldPositional {
			positional++
		} else {
			keyed++
		}
	}
	if positional == 0 {
		return
	}
	if positional == 1 && keyed == 0 {
		if _, ok := t.Fields[0].Value.(*ast.VarargExpr); ok {
			return
		}
	}
	d := p.Diag(diagnostics.SourceLint, code, t.Span, "use [..] for list literals; reserve {..} for keyed records")
	if keyed == 0 && t.End-t.Start >= 2 && p.Src[t.Start] == '{' && p.Src[t.End-1] == '}' {
		d.Fixes = append(d.Fixes, diagnostics.Fix{Title: "Write the list with brackets", Edits: []diagnostics.TextEdit{
			{Span: diagnostics.Span{Start: t.Start, End: t.Start + 1}, NewText: "["},
			{Span: diagnostics.Span{Start: t.End - 1, End: t.End}, NewText: "]"},
		}})
	} else {
		d.Help = "give the un-keyed entries keys, or move them into a list"
	}
	p.Report(d)
}
