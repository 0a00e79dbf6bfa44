package evaluate

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const code = "LEIA3006"

//go:embed doc.go
var doc string

// Rule is the evaluate rule.
var Rule = &analysis.Rule{
	Name:  "evaluate",
	Doc:   analysis.ExtractDoc(doc, "evaluate"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		if tb, ok := n.(*ast.TaggedBlock); ok && tb.Tag != nil && tb.Tag.Name == "evaluate" {
			// `evaluate { ... }` parses as a tagged block: the case has
			// no name, and ordinary execution would run its body as
			// table fields.
			d := p.Diag(diagnostics.SourceInvariant, code, tb.Tag.Span, "evaluate requires a case name: a string literal, as in evaluate \"name\" { ... }")
			d.Help = "name the case after what it checks; without a name the block is not an evaluate case, and running the file would run its body"
			p.Report(d)
			return true
		}
		ev, ok := n.(*ast.EvaluateStmt)
		if !ok || ev.Name == nil {
			return true
		}
		s, literal := ev.Name.Value()
		switch {
		case !literal:
			d := p.Diag(diagnostics.SourceInvariant, code, ev.Name.Span, "evaluate name must be a literal string, without ${...}")
			d.Help = "reports and baselines identify a case by its name; write it out"
			p.Report(d)
		case strings.TrimSpace(s) == "":
			d := p.Diag(diagnostics.SourceInvariant, code, ev.Name.Span, "evaluate name must not be empty")
			d.Help = "name the case after what it checks"
			p.Report(d)
		}
		return true
	})
}
