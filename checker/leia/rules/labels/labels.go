package labels

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
)

const (
	codeDuplicate = "LEIA4003"
	codeGoto      = "LEIA4004"
	codeBreak     = "LEIA4005"
)

//go:embed doc.go
var doc string

// Rule is the labels rule.
var Rule = &analysis.Rule{
	Name:  "labels",
	Doc:   analysis.ExtractDoc(doc, "labels"),
	Codes: []string{codeDuplicate, codeGoto, codeBreak},
	Run:   run,
}

// block is one statement list of a function.
type block struct {
	parent *block
	stmts  []ast.Stmt
}

type label struct {
	stmt  *ast.LabelStmt
	block *block
	index int
}

type jump struct {
	stmt  *ast.GotoStmt
	block *block
	index int
}

// function is one label namespace.
type function struct {
	p      *analysis.Pass
	labels map[string]label
	gotos  []jump
	nested []func()
}

func run(p *analysis.Pass) {
	checkFunction(p, p.File.Stmts)
}

func checkFunction(p *analysis.Pass, stmts []ast.Stmt) {
	f := &function{p: p, labels: map[string]label{}}
	f.block(&block{stmts: stmts}, 0, false, false)
	f.checkGotos()
	for i := 0; i < len(f.nested); i++ {
		f.nested[i]()
	}
}

func (f *function) block(b *block, depth int, inLoop, inSelect bool) {
	if depth > ast.MaxDepth {
		return
	}
	for i, st := range b.stmts {
		switch x := st.(type) {
		case *ast.LabelStmt:
			if x.Name == nil {
				continue
			}
			if prev, ok := f.labels[x.Name.Name]; ok {
				d := f.p.Diag(diagnostics.SourceType, codeDuplicate, x.Name.Span, "duplicate label %s, first defined on line %d", x.Name.Name, f.p.Line(prev.stmt.Start))
				d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(prev.stmt.Name.Span), Message: "first defined here"})
				d.Help = "labels are unique in their function; rename one of them"
				f.p.Report(d)
				continue
			}
			f.labels[x.Name.Name] = label{x, b, i}
		case *ast.GotoStmt:
			f.gotos = append(f.gotos, jump{x, b, i})
		case *ast.BreakStmt:
			if !inLoop && !inSelect {
				d := f.p.Diag(diagnostics.SourceType, codeBreak, x.Span, "break is not inside a loop")
				d.Help = "use return to leave a function, or goto a label"
				f.p.Report(d)
			}
		case *ast.ContinueStmt:
			if !inLoop {
				d := f.p.Diag(diagnostics.SourceType, codeBreak, x.Span, "continue is not inside a loop")
				d.Help = "continue restarts the innermost loop; outside one, use return or goto"
				f.p.Report(d)
			}
		case *ast.IfStmt:
			f.expr(x.Cond)
			f.sub(b, x.Then, depth, inLoop, inSelect)
			for _, ei := range x.ElseIfs {
				f.expr(ei.Cond)
				f.sub(b, ei.Body, depth, inLoop, inSelect)
			}
			f.sub(b, x.Else, depth, inLoop, inSelect)
		case *ast.ForStmt:
			f.stmtExprs(x.Init)
			f.expr(x.Cond)
			f.stmtExprs(x.Post)
			f.expr(x.X)
			f.sub(b, x.Body, depth, true, false)
		case *ast.SelectStmt:
			for _, c := range x.Cases {
				f.stmtExprs(c.Comm)
				f.block(&block{parent: b, stmts: c.Body}, depth+1, inLoop, true)
			}
		case *ast.EvaluateStmt:
			f.sub(b, x.Body, depth, false, false)
		case *ast.BudgetStmt:
			f.expr(x.Limits)
			f.sub(b, x.Body, depth, inLoop, inSelect)
		case *ast.FuncDecl:
			f.function(x.Body)
		case *ast.ToolDecl:
			f.function(x.Body)
		case *ast.AgentDecl:
			f.expr(x.Config)
			f.function(x.Flow)
		default:
			f.stmtExprs(st)
		}
	}
}

func (f *function) sub(parent *block, b *ast.Block, depth int, inLoop, inSelect bool) {
	if b == nil {
		return
	}
	f.block(&block{parent: parent, stmts: b.Stmts}, depth+1, inLoop, inSelect)
}

// function queues a nested function body: a namespace of its own.
func (f *function) function(body *ast.Block) {
	if body == nil {
		return
	}
	p := f.p
	f.nested = append(f.nested, func() { checkFunction(p, body.Stmts) })
}

// stmtExprs finds the function literals in a simple statement.
func (f *function) stmtExprs(st ast.Stmt) {
	if st == nil {
		return
	}
	f.expr(st)
}

// expr queues the bodies of function literals, flows and quote blocks
// found in n, without entering them.
func (f *function) expr(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			f.function(x.Body)
			return false
		case *ast.QuoteBlock:
			f.function(x.Body)
			if x.Fields != nil {
				f.expr(x.Fields)
			}
			return false
		case *ast.AgentExpr:
			f.expr(x.Config)
			f.function(x.Flow)
			return false
		}
		return true
	})
}

func (f *function) checkGotos() {
	for _, g := range f.gotos {
		if g.stmt.Label == nil || g.stmt.Label.Name == "" {
			continue
		}
		name := g.stmt.Label.Name
		l, ok := f.labels[name]
		if !ok {
			d := f.p.Diag(diagnostics.SourceType, codeGoto, g.stmt.Label.Span, "goto %s: no label %s in this function", name, name)
			d.Help = "a goto can only reach a label of its own function; declare " + name + ": where it should jump"
			f.p.Report(d)
			continue
		}
		if !encloses(l.block, g.block) {
			d := f.p.Diag(diagnostics.SourceType, codeGoto, g.stmt.Label.Span, "goto %s jumps into a block", name)
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(l.stmt.Span), Message: "label inside a block the goto is not in"})
			d.Help = "move the label to a block that encloses the goto"
			f.p.Report(d)
			continue
		}
		if l.block == g.block && l.index > g.index {
			for i := g.index + 1; i < l.index; i++ {
				if name, span, ok := declares(g.block.stmts[i]); ok {
					d := f.p.Diag(diagnostics.SourceType, codeGoto, g.stmt.Label.Span, "goto %s jumps over the declaration of %s", l.stmt.Name.Name, name)
					d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(span), Message: "declared here"})
					d.Help = "move the declaration before the goto or after the label, or put it in a block of its own"
					f.p.Report(d)
					break
				}
			}
		}
	}
}

// encloses reports whether outer is inner or one of its ancestors.
func encloses(outer, inner *block) bool {
	for b := inner; b != nil; b = b.parent {
		if b == outer {
			return true
		}
	}
	return false
}

// declares reports the first name a statement declares in its block (or,
// for a loop, its own scope, which Leia's validator counts too).
func declares(st ast.Stmt) (string, ast.Span, bool) {
	first := func(es []ast.Expr) (string, ast.Span, bool) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				return id.Name, id.Span, true
			}
		}
		return "", ast.Span{}, false
	}
	switch x := st.(type) {
	case *ast.DeclareStmt:
		return first(x.Left)
	case *ast.ConstDecl:
		if len(x.Names) > 0 && x.Names[0] != nil {
			return x.Names[0].Name, x.Names[0].Span, true
		}
	case *ast.FuncDecl:
		if x.Name != nil {
			return x.Name.Name, x.Name.Span, true
		}
	case *ast.ToolDecl:
		if x.Name != nil {
			return x.Name.Name, x.Name.Span, true
		}
	case *ast.AgentDecl:
		if x.Name != nil {
			return x.Name.Name, x.Name.Span, true
		}
	case *ast.ForStmt:
		switch x.Kind {
		case ast.ForRange:
			return first(x.Vars)
		case ast.ForClause:
			if d, ok := x.Init.(*ast.DeclareStmt); ok {
				return first(d.Left)
			}
		}
	}
	return "", ast.Span{}, false
}
