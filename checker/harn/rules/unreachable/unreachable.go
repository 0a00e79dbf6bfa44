package unreachable

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-MAT-003"

//go:embed doc.go
var doc string

// Rule is the unreachable rule.
var Rule = &analysis.Rule{
	Name:  "unreachable",
	Doc:   analysis.ExtractDoc(doc, "unreachable"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Calls {
		if c.Name != "unreachable" || !c.Builtin || c.Node == nil || len(c.Node.Args) != 1 || len(c.Args) != 1 || c.Args[0] == nil {
			continue
		}
		if _, ok := c.Node.Args[0].(*ast.Ident); !ok {
			continue
		}
		t := c.Args[0]
		if types.IsBasic(t, types.Never) || analysis.ContainsGradual(t) {
			continue
		}
		d := p.Diag(diagnostics.SourceType, code, c.Node.Span, "unreachable() argument has type `%s` — not all cases are handled", types.Describe(t))
		d.Help = "handle the values of type " + types.Describe(t) + " before this point"
		p.Report(d)
	}
}
