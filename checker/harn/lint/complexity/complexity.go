package complexity

import (
	_ "embed"
	"fmt"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// DefaultThreshold is the score above which a function is reported
// (upstream's `[lint] complexity_threshold` default).
const DefaultThreshold = 25

// CyclomaticComplexity is the cyclomatic-complexity rule with the default
// threshold.
var CyclomaticComplexity = RuleWithThreshold(DefaultThreshold)

// RuleWithThreshold returns the cyclomatic-complexity rule reporting
// scores above threshold.
func RuleWithThreshold(threshold int) *analysis.Rule {
	return &analysis.Rule{
		Name:  "cyclomatic-complexity",
		Doc:   analysis.ExtractDoc(doc, "cyclomatic-complexity"),
		Codes: []string{"HARN-LNT-002"},
		Run:   func(p *analysis.Pass) { run(p, threshold) },
	}
}

func run(p *analysis.Pass, threshold int) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		var name *ast.Ident
		var body ast.Node
		switch x := n.(type) {
		case *ast.FuncDecl:
			name, body = x.Name, x.Body
		case *ast.ToolDecl:
			name, body = x.Name, &ast.Block{Stmts: x.Body}
		default:
			return true
		}
		if name == nil || allowed(n) || anyAllowed(stack) {
			return true
		}
		if score := Score(body); score > threshold {
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-002", name.Span, "function `%s` has cyclomatic complexity %d (more than %d)", name.Name, score, threshold)
			d.Help = fmt.Sprintf("split `%s` into smaller functions, or mark it `@complexity(allow)` if the branching is the point", name.Name)
			p.Report(d)
		}
		return true
	})
}

// attrs returns the attributes of a declaration.
func attrs(n ast.Node) []*ast.Attribute {
	switch x := n.(type) {
	case *ast.FuncDecl:
		return x.Attrs
	case *ast.ToolDecl:
		return x.Attrs
	case *ast.Pipeline:
		return x.Attrs
	case *ast.ImplDecl:
		return x.Attrs
	}
	return nil
}

// allowed reports whether a declaration carries `@complexity(allow)`.
func allowed(n ast.Node) bool {
	for _, a := range attrs(n) {
		if a.Name == nil || a.Name.Name != "complexity" {
			continue
		}
		for _, arg := range a.Args {
			if id, ok := arg.Value.(*ast.Ident); ok && arg.Name == nil && id.Name == "allow" {
				return true
			}
		}
	}
	return false
}

func anyAllowed(stack []ast.Node) bool {
	for _, n := range stack {
		if allowed(n) {
			return true
		}
	}
	return false
}

// Score returns the cyclomatic complexity of a function body: 1 plus its
// decision points, nested declared functions excluded.
func Score(body ast.Node) int {
	score := 1
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl, *ast.ToolDecl, *ast.Pipeline, *ast.Override, *ast.ImplDecl:
			return false
		case *ast.If, *ast.For, *ast.While, *ast.Retry, *ast.Guard, *ast.Match, *ast.Conditional:
			score++
		case *ast.Try:
			if x.Catch != nil || x.Finally != nil {
				score++
			}
		case *ast.Binary:
			if x.Op == ast.And || x.Op == ast.Or {
				score++
			}
		case *ast.Select:
			score += len(x.Cases)
		}
		return true
	})
	return score
}
