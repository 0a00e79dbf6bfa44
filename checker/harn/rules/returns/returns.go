package returns

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-004"

//go:embed doc.go
var doc string

// Rule is the returns rule.
var Rule = &analysis.Rule{
	Name:  "returns",
	Doc:   analysis.ExtractDoc(doc, "returns"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, r := range p.Facts.Returns {
		v := r.Node.Value
		for {
			pe, ok := v.(*ast.Paren)
			if !ok {
				break
			}
			v = pe.X
		}
		switch v.(type) {
		case *ast.If, *ast.Match, *ast.Try, *ast.Block, *ast.Retry, *ast.Deadline, *ast.Parallel, *ast.Spawn, *ast.Error:
			continue
		}
		if analysis.Uncertain(r.Value) || types.IsGradual(r.Declared) || types.Assignable(r.Value, r.Declared) {
			continue
		}
		got := r.Value
		if _, lits := types.Literals(r.Declared); !lits {
			if l, ok := got.(*types.Literal); ok {
				got = l.Base()
			}
		}
		d := p.Diag(diagnostics.SourceType, code, r.Node.Value.Pos(), "return type doesn't match: expected %s, got %s", types.Describe(r.Declared), types.Describe(got))
		d.Help = "return a value of type " + types.Describe(r.Declared) + ", or change the declared result type"
		p.Report(d)
	}
}
