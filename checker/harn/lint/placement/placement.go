package placement

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// PipelineReturnType is the pipeline-return-type rule.
var PipelineReturnType = &analysis.Rule{
	Name:  "pipeline-return-type",
	Doc:   analysis.ExtractDoc(doc, "pipeline-return-type"),
	Codes: []string{"HARN-LNT-023"},
	Run:   pipelineReturnType,
}

// AssertOutsideTest is the assert-outside-test rule.
var AssertOutsideTest = &analysis.Rule{
	Name:  "assert-outside-test",
	Doc:   analysis.ExtractDoc(doc, "assert-outside-test"),
	Codes: []string{"HARN-LNT-025"},
	Run:   assertOutsideTest,
}

// RequireInTest is the require-in-test rule.
var RequireInTest = &analysis.Rule{
	Name:  "require-in-test",
	Doc:   analysis.ExtractDoc(doc, "require-in-test"),
	Codes: []string{"HARN-LNT-038"},
	Run:   requireInTest,
}

// BreakOutsideLoop is the break-outside-loop rule.
var BreakOutsideLoop = &analysis.Rule{
	Name:  "break-outside-loop",
	Doc:   analysis.ExtractDoc(doc, "break-outside-loop"),
	Codes: []string{"HARN-LNT-039"},
	Run:   breakOutsideLoop,
}

// IsTestPipeline reports whether a pipeline of this name is a test.
func IsTestPipeline(name string) bool {
	return name == "test" || strings.HasPrefix(name, "test_")
}

// inTest reports whether a stack of enclosing nodes is inside a test
// pipeline.
func inTest(stack []ast.Node) bool {
	for _, n := range stack {
		if p, ok := n.(*ast.Pipeline); ok && p.Name != nil && IsTestPipeline(p.Name.Name) {
			return true
		}
	}
	return false
}

func pipelineReturnType(p *analysis.Pass) {
	for _, it := range p.File.Items {
		pl, ok := it.(*ast.Pipeline)
		if !ok || !pl.Pub || pl.ReturnType != nil || pl.Name == nil {
			continue
		}
		switch name := pl.Name.Name; {
		case name == "default" || name == "main" || name == "auto" || IsTestPipeline(name):
			continue
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-023", pl.Name.Span, "public pipeline `%s` declares no result type", pl.Name.Name)
		d.Help = "declare it after the parameters: `pub pipeline " + pl.Name.Name + "(...) -> T { ... }`"
		p.Report(d)
	}
}

func assertOutsideTest(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		switch name := syntax.Callee(c); name {
		case "assert", "assert_eq", "assert_ne":
			if !inTest(stack) {
				d := p.Diag(diagnostics.SourceLint, "HARN-LNT-025", c.Span, "`%s` outside a test pipeline", name)
				d.Help = "state an invariant of the program with `require cond, \"message\"`; keep assertions in `pipeline test_...`"
				p.Report(d)
			}
		}
		return true
	})
}

func requireInTest(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		if r, ok := n.(*ast.Require); ok && inTest(stack) {
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-038", r.Span, "`require` in a test pipeline")
			d.Help = "use `assert(cond)` or `assert_eq(got, want)`, which report the values compared"
			p.Report(d)
		}
		return true
	})
}

func breakOutsideLoop(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		var kw string
		var span ast.Span
		switch x := n.(type) {
		case *ast.Break:
			kw, span = "break", x.Span
		case *ast.Continue:
			kw, span = "continue", x.Span
		default:
			return true
		}
		if inLoop(stack) {
			return true
		}
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-039", span, "`%s` outside a loop", kw)
		d.Help = "`" + kw + "` is allowed only in the body of a `for` or `while` loop of the same function"
		p.Report(d)
		return true
	})
}

// inLoop reports whether the innermost function of a stack of enclosing
// nodes has a for or while loop around its end.
func inLoop(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.For, *ast.While:
			return true
		}
		if syntax.IsFunction(stack[i]) {
			return false
		}
	}
	return false
}
