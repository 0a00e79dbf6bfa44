package dropped

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const code = "LEIA3009"

//go:embed doc.go
var doc string

// Rule is the dropped rule.
var Rule = &analysis.Rule{
	Name:  "dropped",
	Doc:   analysis.ExtractDoc(doc, "dropped"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	// The calls that return an error value, by node.
	pairs := map[ast.Expr]string{}
	for _, c := range p.Facts.Calls {
		switch {
		case c.Entry != nil && c.Entry.ErrorResult:
			pairs[c.Node] = c.Entry.Name
		case c.Agent != nil:
			pairs[c.Node] = "agent " + c.Name
		}
	}
	for _, t := range p.Facts.Turns {
		if tb, ok := t.Node.(*ast.TaggedBlock); ok {
			pairs[tb] = "turn"
		}
	}
	if len(pairs) == 0 {
		return
	}
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ExprStmt:
			if name, ok := pairs[x.X]; ok {
				d := p.Diag(diagnostics.SourceLint, code, x.X.Pos(), "the result and error of %s are dropped", name)
				d.Help = "bind them: result, err := ...; and handle err (provider, budget and validation failures arrive there)"
				p.Report(d)
			}
		case *ast.DeclareStmt:
			bound(p, pairs, x.Left, x.Right)
		case *ast.AssignStmt:
			bound(p, pairs, x.Left, x.Right)
		}
		return true
	})
}

func bound(p *analysis.Pass, pairs map[ast.Expr]string, left, right []ast.Expr) {
	if len(right) != 1 {
		return
	}
	name, ok := pairs[right[0]]
	if !ok {
		return
	}
	if len(left) == 1 {
		d := p.Diag(diagnostics.SourceLint, code, left[0].Pos(), "the error of %s is dropped: only its result is bound", name)
		d.Help = "bind the error too: result, err := ...; the result is nil when the call fails"
		p.Report(d)
		return
	}
	id, ok := left[1].(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	b := p.Facts.Decls[id]
	if b == nil {
		b = p.Facts.Uses[id]
	}
	if b != nil && b.Reads == 0 {
		d := p.Diag(diagnostics.SourceLint, code, id.Span, "the error %s of %s is never checked", id.Name, name)
		d.Help = "test it (if " + id.Name + " != nil { ... }), return it, or bind it to _ to drop it on purpose"
		p.Report(d)
	}
}
