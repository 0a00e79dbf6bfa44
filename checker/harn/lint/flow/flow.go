package flow

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

func rule(name, code string, run func(*analysis.Pass)) *analysis.Rule {
	return &analysis.Rule{Name: name, Doc: analysis.ExtractDoc(doc, name), Codes: []string{code}, Run: run}
}

// DeadCodeAfterReturn is the dead-code-after-return rule.
var DeadCodeAfterReturn = func() *analysis.Rule {
	r := rule("dead-code-after-return", "HARN-LNT-011", deadCode)
	r.Aliases = []string{"unreachable-code"}
	return r
}()

// EmptyBlock is the empty-block rule.
var EmptyBlock = rule("empty-block", "HARN-LNT-035", emptyBlock)

// UnnecessaryElseReturn is the unnecessary-else-return rule.
var UnnecessaryElseReturn = rule("unnecessary-else-return", "HARN-LNT-036", elseReturn)

// LetThenReturn is the let-then-return rule.
var LetThenReturn = rule("let-then-return", "HARN-LNT-012", letThenReturn)

// eachBody calls f for every statement list of the file: the top level,
// blocks, and the bodies of closures, tools and eval packs.
func eachBody(file *ast.File, f func([]ast.Stmt)) {
	f(file.Items)
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Block:
			f(n.Stmts)
		case *ast.Closure:
			f(n.Body)
		case *ast.ToolDecl:
			f(n.Body)
		case *ast.EvalPackDecl:
			f(n.Body)
		}
		return true
	})
}

// Exits reports whether s always leaves the body it is in.
func Exits(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.Return, *ast.Throw, *ast.Break, *ast.Continue:
		return true
	case *ast.If:
		if s.Then == nil || ast.IsNil(s.Else) {
			return false
		}
		switch e := s.Else.(type) {
		case *ast.Block:
			return blockExits(s.Then.Stmts) && blockExits(e.Stmts)
		case *ast.If:
			return blockExits(s.Then.Stmts) && Exits(e)
		}
	}
	return false
}

func blockExits(ss []ast.Stmt) bool {
	for _, s := range ss {
		if Exits(s) {
			return true
		}
	}
	return false
}

func deadCode(p *analysis.Pass) {
	eachBody(p.File, func(ss []ast.Stmt) {
		for i, s := range ss[:max(len(ss)-1, 0)] {
			if Exits(s) {
				d := p.Diag(diagnostics.SourceLint, "HARN-LNT-011", ss[i+1].Pos(), "this statement never runs: the one before it always leaves the body")
				d.Help = "remove the unreachable statements, or move them before the one that leaves"
				p.Report(d)
				return
			}
		}
	})
}

func emptyBlock(p *analysis.Pass) {
	stmts := map[ast.Stmt]bool{}
	eachBody(p.File, func(ss []ast.Stmt) {
		for _, s := range ss {
			stmts[s] = true
		}
	})
	report := func(n ast.Node, what string, removable bool) {
		d := p.Diag(diagnostics.SourceLint, "HARN-LNT-035", n.Pos(), "%s has an empty body", what)
		d.Help = "add the missing body or remove the " + strings.Fields(what)[0]
		if s, ok := n.(ast.Stmt); ok && removable && stmts[s] {
			d.Fixes = []diagnostics.Fix{{Title: "Remove the empty " + strings.Fields(what)[0], Edits: []diagnostics.TextEdit{removeLine(p.Src, n.Pos())}}}
		}
		p.Report(d)
	}
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.If:
			if n.Then != nil && len(n.Then.Stmts) == 0 {
				report(n, "if", ast.IsNil(n.Else) && syntax.Pure(n.Cond))
			}
		case *ast.For:
			if n.Body != nil && len(n.Body.Stmts) == 0 {
				report(n, "for loop", syntax.Pure(n.Iterable))
			}
		case *ast.While:
			if n.Body != nil && len(n.Body.Stmts) == 0 {
				report(n, "while loop", false)
			}
		case *ast.Try:
			if n.Body != nil && len(n.Body.Stmts) == 0 {
				report(n, "try", false)
			}
		}
		return true
	})
}

// removeLine is the edit removing the statement at span with the spaces
// before it and one newline after it.
func removeLine(src []byte, span ast.Span) diagnostics.TextEdit {
	start, end := span.Start, span.End
	rest := end
	for rest < len(src) && (src[rest] == ' ' || src[rest] == '\t') {
		rest++
	}
	if rest < len(src) && src[rest] != '\n' {
		// Something follows on the line: remove the statement alone.
		return diagnostics.TextEdit{Span: diagnostics.Span{Start: start, End: rest}}
	}
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	end = rest
	if end < len(src) && src[end] == '\n' {
		end++
	}
	return diagnostics.TextEdit{Span: diagnostics.Span{Start: start, End: end}}
}

func elseReturn(p *analysis.Pass) {
	eachBody(p.File, func(ss []ast.Stmt) {
		for _, s := range ss {
			n, ok := s.(*ast.If)
			if !ok || n.Then == nil || len(n.Then.Stmts) == 0 {
				continue
			}
			els, ok := n.Else.(*ast.Block)
			if !ok || els == nil || len(els.Stmts) == 0 {
				continue
			}
			if _, ok := n.Then.Stmts[len(n.Then.Stmts)-1].(*ast.Return); !ok {
				continue
			}
			if _, ok := els.Stmts[len(els.Stmts)-1].(*ast.Return); !ok {
				continue
			}
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-036", n.Span, "both branches of this if return: the else is unnecessary")
			d.Help = "drop the else and write its body after the if"
			lineStart := strings.LastIndexByte(string(p.Src[:n.Span.Start]), '\n') + 1
			indent := string(p.Src[lineStart:n.Span.Start])
			if strings.TrimSpace(indent) == "" {
				body := p.Slice(diagnostics.Span{Start: els.Stmts[0].Pos().Start, End: els.Stmts[len(els.Stmts)-1].Pos().End})
				d.Fixes = []diagnostics.Fix{{Title: "Move the else body after the if", Edits: []diagnostics.TextEdit{{
					Span: diagnostics.Span{Start: n.Then.Span.End, End: n.Span.End}, NewText: "\n" + indent + body}}}}
			}
			p.Report(d)
		}
	})
}

func letThenReturn(p *analysis.Pass) {
	eachBody(p.File, func(ss []ast.Stmt) {
		for i := 0; i+1 < len(ss); i++ {
			v, ok := ss[i].(*ast.VarDecl)
			if !ok || v.Kind == ast.Var || v.Type != nil || ast.IsNil(v.Value) {
				continue
			}
			id, ok := v.Pattern.(*ast.Ident)
			if !ok {
				continue
			}
			r, ok := ss[i+1].(*ast.Return)
			if !ok {
				continue
			}
			rid, ok := r.Value.(*ast.Ident)
			if !ok || rid.Name != id.Name {
				continue
			}
			span := ast.Span{Start: v.Span.Start, End: r.Span.End}
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-012", span, "`%s` is bound only to be returned by the next statement", id.Name)
			d.Help = "return the expression directly"
			between := string(p.Src[v.Span.End:r.Span.Start])
			d.Fixes = []diagnostics.Fix{{
				Title:  "Return the expression directly",
				Edits:  []diagnostics.TextEdit{{Span: analysis.Span(span), NewText: "return " + p.Text(v.Value.Pos())}},
				Unsafe: strings.Contains(between, "//") || strings.Contains(between, "/*"),
			}}
			p.Report(d)
		}
	})
}
