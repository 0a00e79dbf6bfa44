package nativestate

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-LNT-079"

//go:embed doc.go
var doc string

// Rule is the nativestate rule.
var Rule = &analysis.Rule{
	Name:  "nativestate",
	Doc:   analysis.ExtractDoc(doc, "nativestate"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, s := range p.Facts.Sites {
		if s.ReceiverProblem != "" || !s.Policy.Const || s.InputDeclared == nil {
			continue
		}
		if b, _ := s.Policy.String("backend"); b != "native_decision" {
			continue
		}
		if a, ok := s.InputDeclared.(*types.Alias); ok && a.Module != p.Path && a.Module != stdlib.PredicateModule {
			continue // declared in another module: not this file's to bound
		}
		prob, ok := types.CheckFinite(s.InputDeclared)
		if ok {
			continue
		}
		d := p.Diag(diagnostics.SourceLint, code, s.InputSpan, "unbounded-native-decision-state: the native_decision site's input type %s has no size bound (%s)", types.Describe(s.InputDeclared), prob)
		d.Help = "declare the input with bounded fields (int, bool, float, string-literal unions), or use backend \"structured_llm\"; split long lists with evaluation_windows"
		d.Related = []diagnostics.Related{{Span: analysis.Span(s.Policy.Span), Message: "the policy selecting native_decision"}}
		p.Report(d)
	}
}
