package arity

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

const (
	codeTooFew  = "LEIA4008"
	codeTooMany = "LEIA4009"
)

//go:embed doc.go
var doc string

// Rule is the arity rule.
var Rule = &analysis.Rule{
	Name:  "arity",
	Doc:   analysis.ExtractDoc(doc, "arity"),
	Codes: []string{codeTooFew, codeTooMany},
	Run:   run,
}

func run(p *analysis.Pass) {
	probes := failureProbes(p.File)
	for _, c := range p.Facts.Calls {
		if probes[c.Node] {
			continue
		}
		n := len(c.Node.Args)
		// A final call or ... may expand to any number of values.
		open := false
		if n > 0 {
			switch c.Node.Args[n-1].(type) {
			case *ast.CallExpr, *ast.MethodCallExpr, *ast.VarargExpr:
				open = true
				n--
			}
		}
		switch {
		case c.Entry != nil:
			e := c.Entry
			if e.Kind != stdlib.Function {
				continue
			}
			if !open && n < e.MinArgs {
				d := p.Diag(diagnostics.SourceType, codeTooFew, c.Node.Span, "not enough arguments in call to %s: have %d, want %s", e.Name, n, want(e.MinArgs, e.MaxArgs))
				d.Help = "signature: " + e.Signature()
				p.Report(d)
			}
			if e.MaxArgs != stdlib.Unbounded && n > e.MaxArgs {
				p.Report(tooMany(p, c, n, e.MaxArgs, "signature: "+e.Signature(), nil))
			}
		case c.Params != nil:
			if c.Params.Variadic {
				continue
			}
			max := len(c.Params.Names)
			if n > max {
				var names []string
				for _, id := range c.Params.Names {
					names = append(names, id.Name)
				}
				help := fmt.Sprintf("%s takes (%s)", c.Name, strings.Join(names, ", "))
				var rel []diagnostics.Related
				if c.Decl != nil {
					rel = append(rel, diagnostics.Related{Span: analysis.Span(c.Params.Span), Message: "parameters declared here"})
				}
				p.Report(tooMany(p, c, n, max, help, rel))
			}
		}
	}
}

func tooMany(p *analysis.Pass, c *semantic.Call, have, max int, help string, rel []diagnostics.Related) diagnostics.Diagnostic {
	extra := c.Node.Args[max]
	span := ast.Span{Start: extra.Pos().Start, End: c.Node.Args[have-1].Pos().End}
	d := p.Diag(diagnostics.SourceType, codeTooMany, span, "too many arguments in call to %s: have %d, it takes %d; the extra ones are dropped", c.Name, have, max)
	d.Help = help
	d.Related = rel
	return d
}

func want(min, max int) string {
	switch {
	case max == stdlib.Unbounded:
		return fmt.Sprintf("at least %d", min)
	case min == max:
		return fmt.Sprint(min)
	}
	return fmt.Sprintf("%d to %d", min, max)
}

// failureProbes returns the calls a program makes on purpose to see them
// fail: the single call of a parameterless function literal passed as an
// argument, as in pcall(func() { rawget() }) or
// expect_error(func() { return math.sin() }). The thunk exists to run the
// call under a handler, so its argument count is not held against it.
func failureProbes(f *ast.File) map[*ast.CallExpr]bool {
	probes := map[*ast.CallExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, arg := range call.Args {
			if inner := thunkCall(arg); inner != nil {
				probes[inner] = true
			}
		}
		return true
	})
	return probes
}

// thunkCall returns the call a parameterless one-statement function
// literal makes (`func() { f() }` or `func() { return f() }`), else nil.
func thunkCall(e ast.Expr) *ast.CallExpr {
	lit, ok := e.(*ast.FuncLit)
	if !ok || lit.Body == nil || len(lit.Body.Stmts) != 1 {
		return nil
	}
	if lit.Params != nil && (len(lit.Params.Names) > 0 || lit.Params.Variadic) {
		return nil
	}
	switch s := lit.Body.Stmts[0].(type) {
	case *ast.ExprStmt:
		c, _ := s.X.(*ast.CallExpr)
		return c
	case *ast.ReturnStmt:
		if len(s.Values) == 1 {
			c, _ := s.Values[0].(*ast.CallExpr)
			return c
		}
	}
	return nil
}
