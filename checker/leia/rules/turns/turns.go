package turns

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const code = "LEIA3005"

//go:embed doc.go
var doc string

// Rule is the turns rule.
var Rule = &analysis.Rule{
	Name:  "turns",
	Doc:   analysis.ExtractDoc(doc, "turns"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, t := range p.Facts.Turns {
		if t.Table == nil {
			continue
		}
		judged := true
		for _, f := range t.Table.Fields {
			if f.Kind == ast.FieldPositional || f.Kind == ast.FieldComputed {
				judged = false
			}
		}
		if !judged || t.Table.Lookup("messages") != nil || t.Table.Lookup("user") != nil {
			continue
		}
		span := t.Node.Pos()
		span.End = min(span.End, span.Start+4)
		d := p.Diag(diagnostics.SourceInvariant, code, span, "turn has neither messages nor user: there is nothing to send")
		d.Help = `add messages: [llm.user("...")] or user: "..."`
		p.Report(d)
	}
}
