package general

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

//go:embed doc.go
var doc string

// ShadowVariable is the shadow-variable rule.
var ShadowVariable = &analysis.Rule{
	Name:  "shadow-variable",
	Doc:   analysis.ExtractDoc(doc, "shadow-variable"),
	Codes: []string{"LEIA2002"},
	Run:   shadow,
}

// UnreachableCode is the unreachable-code rule.
var UnreachableCode = &analysis.Rule{
	Name:  "unreachable-code",
	Doc:   analysis.ExtractDoc(doc, "unreachable-code"),
	Codes: []string{"LEIA2003"},
	Run:   unreachable,
}

// EmptyBlock is the empty-block rule.
var EmptyBlock = &analysis.Rule{
	Name:  "empty-block",
	Doc:   analysis.ExtractDoc(doc, "empty-block"),
	Codes: []string{"LEIA2004"},
	Run:   emptyBlock,
}

// ComparisonToBool is the comparison-to-bool rule.
var ComparisonToBool = &analysis.Rule{
	Name:  "comparison-to-bool",
	Doc:   analysis.ExtractDoc(doc, "comparison-to-bool"),
	Codes: []string{"LEIA2005"},
	Run:   comparisonToBool,
}

// NamingConvention is the naming-convention rule.
var NamingConvention = &analysis.Rule{
	Name:  "naming-convention",
	Doc:   analysis.ExtractDoc(doc, "naming-convention"),
	Codes: []string{"LEIA2006"},
	Run:   naming,
}

// local reports whether a binding is one the user declared as a name of
// their own (not an import, a legacy declaration or an injected local).
func local(b *semantic.Binding) bool {
	if b.Ident == nil || b.Name == "_" || b.Name == "" {
		return false
	}
	switch b.Kind {
	case semantic.Var, semantic.Const, semantic.Param, semantic.Func, semantic.Range:
		return true
	}
	return false
}

func shadow(p *analysis.Pass) {
	byScope := map[*semantic.Scope][]*semantic.Binding{}
	for _, b := range p.Facts.Bindings {
		byScope[b.Scope] = append(byScope[b.Scope], b)
	}
	for _, b := range p.Facts.Bindings {
		if !local(b) || b.Name == "err" || b.Name == "ok" || b.Scope == nil {
			continue
		}
		var outer *semantic.Binding
		for s := b.Scope.Parent; s != nil && outer == nil; s = s.Parent {
			for _, o := range byScope[s] {
				if o.Name != b.Name || o.Ident == nil || o.Kind == semantic.Injected {
					continue
				}
				if o.Ident.Start < b.Ident.Start || o.Kind == semantic.Func {
					outer = o
					break
				}
			}
		}
		if outer == nil {
			continue
		}
		d := p.Diag(diagnostics.SourceLint, "LEIA2002", b.Ident.Span, "%s %s shadows the %s %s of an enclosing scope", b.Kind, b.Name, outer.Kind, outer.Name)
		d.Related = []diagnostics.Related{{Span: analysis.Span(outer.Ident.Span), Message: "the shadowed " + outer.Kind.String()}}
		d.Help = "rename one of them; to update the outer " + b.Name + ", assign with = instead of declaring with :="
		p.Report(d)
	}
}

// terminates reports whether statement s always leaves its block.
func terminates(s ast.Stmt) bool {
	switch x := s.(type) {
	case *ast.ReturnStmt, *ast.BreakStmt, *ast.ContinueStmt, *ast.GotoStmt:
		return true
	case *ast.IfStmt:
		if x.Else == nil || !blockTerminates(x.Then) || !blockTerminates(x.Else) {
			return false
		}
		for _, e := range x.ElseIfs {
			if !blockTerminates(e.Body) {
				return false
			}
		}
		return true
	}
	return false
}

func blockTerminates(b *ast.Block) bool {
	return b != nil && len(b.Stmts) > 0 && terminates(b.Stmts[len(b.Stmts)-1])
}

// stmtLists calls f for every statement list of the file.
func stmtLists(file *ast.File, f func([]ast.Stmt)) {
	f(file.Stmts)
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Block:
			f(x.Stmts)
		case *ast.CommCase:
			f(x.Body)
		}
		return true
	})
}

func unreachable(p *analysis.Pass) {
	stmtLists(p.File, func(stmts []ast.Stmt) {
		for i := 0; i+1 < len(stmts); i++ {
			if !terminates(stmts[i]) {
				continue
			}
			next := stmts[i+1]
			if _, ok := next.(*ast.LabelStmt); ok {
				continue
			}
			d := p.Diag(diagnostics.SourceLint, "LEIA2003", next.Pos(), "unreachable statement: the one before it always leaves the block")
			d.Related = []diagnostics.Related{{Span: analysis.Span(stmts[i].Pos()), Message: "leaves the block here"}}
			d.Help = "remove it, or move it before the statement that leaves the block"
			p.Report(d)
			return
		}
	})
}

// empty reports whether a block holds no statement and no comment.
func empty(p *analysis.Pass, b *ast.Block) bool {
	if b == nil || len(b.Stmts) > 0 || b.End <= b.Start || b.End > len(p.Src) {
		return false
	}
	inner := strings.TrimSpace(string(p.Src[b.Start:b.End]))
	inner = strings.TrimSuffix(strings.TrimPrefix(inner, "{"), "}")
	return strings.TrimSpace(inner) == ""
}

func emptyBlock(p *analysis.Pass) {
	report := func(b *ast.Block, what string) {
		if empty(p, b) {
			d := p.Diag(diagnostics.SourceLint, "LEIA2004", b.Span, "empty %s", what)
			d.Help = "remove it, or write what should happen there (a comment saying why nothing does counts)"
			p.Report(d)
		}
	}
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt:
			report(x.Then, "if body")
			for _, e := range x.ElseIfs {
				report(e.Body, "elseif body")
			}
			report(x.Else, "else body")
		case *ast.ForStmt:
			if x.Kind == ast.ForInfinite {
				report(x.Body, "for body: the loop spins forever")
			} else {
				report(x.Body, "loop body")
			}
		}
		return true
	})
}

// unparen strips parentheses.
func unparen(e ast.Expr) ast.Expr {
	for {
		pe, ok := e.(*ast.ParenExpr)
		if !ok || pe == nil {
			return e
		}
		e = pe.X
	}
}

// atom reports whether e needs no parentheses after `!`.
func atom(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.CallExpr, *ast.MethodCallExpr, *ast.IndexExpr, *ast.FieldExpr, *ast.ParenExpr,
		*ast.StringLit, *ast.IntLit, *ast.FloatLit, *ast.NilLit, *ast.BoolLit:
		return true
	}
	return false
}

func comparisonToBool(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || (b.Op != "==" && b.Op != "~=" && b.Op != "!=") {
			return true
		}
		lit, other := unparen(b.Right), b.Left
		bl, isLit := lit.(*ast.BoolLit)
		if !isLit {
			lit, other = unparen(b.Left), b.Right
			bl, isLit = lit.(*ast.BoolLit)
		}
		if !isLit {
			return true
		}
		if _, both := unparen(other).(*ast.BoolLit); both {
			return true
		}
		text := p.Slice(analysis.Span(other.Pos()))
		repl := text
		if (b.Op == "==") != bl.Value {
			if !atom(other) {
				text = "(" + text + ")"
			}
			repl = "!" + text
		}
		d := p.Diag(diagnostics.SourceLint, "LEIA2005", b.Span, "comparison with %v: write `%s`", bl.Value, repl)
		d.Help = "only nil and false are falsy: `" + repl + "` also accepts values that are not booleans, which is usually what is meant"
		d.Fixes = []diagnostics.Fix{{
			Title:  "Replace with `" + repl + "`",
			Edits:  []diagnostics.TextEdit{{Span: analysis.Span(b.Span), NewText: repl}},
			Unsafe: true,
		}}
		p.Report(d)
		return true
	})
}

// MixedCase reports whether a name mixes conventions: after trimming
// underscores at either end, it has an underscore between words and a
// capital letter after its first character, and is not all capitals.
func MixedCase(name string) bool {
	n := strings.Trim(name, "_")
	if n == "" || !strings.Contains(n, "_") || strings.ToUpper(n) == n {
		return false
	}
	for i := 1; i < len(n); i++ {
		if n[i] >= 'A' && n[i] <= 'Z' {
			return true
		}
	}
	return n[0] >= 'A' && n[0] <= 'Z'
}

func naming(p *analysis.Pass) {
	for _, b := range p.Facts.Bindings {
		if !local(b) || !MixedCase(b.Name) {
			continue
		}
		d := p.Diag(diagnostics.SourceLint, "LEIA2006", b.Ident.Span, "%s %s mixes naming conventions", b.Kind, b.Name)
		d.Help = "use one: snake_case (" + strings.ToLower(b.Name) + "), camelCase, PascalCase for class tables, or UPPER_SNAKE_CASE for constants"
		p.Report(d)
	}
}
