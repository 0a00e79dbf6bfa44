package analysis

import "github.com/harnlang/harn-check/grammar/leia/ast"

// MaxDepth bounds every walk over the syntax tree. Nodes nested deeper are
// not visited: a pathological file gets fewer findings, never a stack
// overflow.
const MaxDepth = 2000

// Inspect calls f for n and, while f returns true, for every node below n
// in source order, up to MaxDepth levels.
func Inspect(n ast.Node, f func(ast.Node) bool) {
	inspect(n, f, 0)
}

func inspect(n ast.Node, f func(ast.Node) bool, depth int) {
	if n == nil || isNil(n) || depth > MaxDepth || !f(n) {
		return
	}
	EachChild(n, func(c ast.Node) { inspect(c, f, depth+1) })
}

// isNil reports a typed nil pointer inside the interface.
func isNil(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Block:
		return x == nil
	case *ast.TableExpr:
		return x == nil
	case *ast.Ident:
		return x == nil
	case *ast.StringLit:
		return x == nil
	case *ast.Params:
		return x == nil
	case *ast.TaggedBlock:
		return x == nil
	}
	return false
}

// EachChild calls f for each direct child node of n, in source order.
func EachChild(n ast.Node, f func(ast.Node)) {
	exprs := func(xs []ast.Expr) {
		for _, x := range xs {
			if x != nil {
				f(x)
			}
		}
	}
	stmts := func(xs []ast.Stmt) {
		for _, x := range xs {
			if x != nil {
				f(x)
			}
		}
	}
	opt := func(x ast.Node) {
		if x != nil && !isNil(x) {
			f(x)
		}
	}
	parts := func(ps []ast.StringPart) {
		for _, p := range ps {
			if p.Expr != nil {
				f(p.Expr)
			}
		}
	}
	switch x := n.(type) {
	case *ast.File:
		stmts(x.Stmts)
	case *ast.Block:
		stmts(x.Stmts)
	case *ast.ExprStmt:
		opt(x.X)
	case *ast.DeclareStmt:
		exprs(x.Left)
		exprs(x.Right)
	case *ast.AssignStmt:
		exprs(x.Left)
		exprs(x.Right)
	case *ast.CompoundAssignStmt:
		opt(x.Left)
		opt(x.Right)
	case *ast.IncDecStmt:
		opt(x.X)
	case *ast.SendStmt:
		opt(x.Chan)
		opt(x.Value)
	case *ast.ReceiveStmt:
		exprs(x.Left)
		opt(x.Right)
	case *ast.ConstDecl:
		for _, nm := range x.Names {
			opt(nm)
		}
		exprs(x.Values)
	case *ast.FuncDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Body)
	case *ast.IfStmt:
		opt(x.Cond)
		opt(x.Then)
		for _, ei := range x.ElseIfs {
			opt(ei.Cond)
			opt(ei.Body)
		}
		opt(x.Else)
	case *ast.ForStmt:
		opt(x.Init)
		opt(x.Cond)
		opt(x.Post)
		exprs(x.Vars)
		opt(x.X)
		opt(x.Body)
	case *ast.SelectStmt:
		for _, c := range x.Cases {
			opt(c.Comm)
			stmts(c.Body)
		}
	case *ast.ReturnStmt:
		exprs(x.Values)
	case *ast.GotoStmt:
		opt(x.Label)
	case *ast.LabelStmt:
		opt(x.Name)
	case *ast.GoStmt:
		opt(x.Call)
	case *ast.DeferStmt:
		opt(x.Call)
	case *ast.ImportDecl:
		for _, s := range x.Specs {
			opt(s.Alias)
			opt(s.Path)
		}
	case *ast.EvaluateStmt:
		opt(x.Name)
		opt(x.Body)
	case *ast.ToolDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Body)
	case *ast.AgentDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Config)
		opt(x.Flow)
	case *ast.AgentDefaults:
		opt(x.Config)
	case *ast.BudgetStmt:
		opt(x.Limits)
		opt(x.Body)
	case *ast.Params:
		for _, nm := range x.Names {
			opt(nm)
		}
	case *ast.StringLit:
		parts(x.Parts)
	case *ast.ParenExpr:
		opt(x.X)
	case *ast.UnaryExpr:
		opt(x.X)
	case *ast.BinaryExpr:
		opt(x.Left)
		opt(x.Right)
	case *ast.CallExpr:
		opt(x.Fun)
		exprs(x.Args)
	case *ast.MethodCallExpr:
		opt(x.Recv)
		opt(x.Method)
		exprs(x.Args)
	case *ast.IndexExpr:
		opt(x.X)
		opt(x.Index)
	case *ast.FieldExpr:
		opt(x.X)
		opt(x.Field)
	case *ast.FuncLit:
		opt(x.Params)
		opt(x.Body)
	case *ast.TableExpr:
		for _, fl := range x.Fields {
			if fl.Kind == ast.FieldComputed {
				opt(fl.Key)
			}
			opt(fl.Value)
		}
	case *ast.ListExpr:
		exprs(x.Elems)
	case *ast.DenseArray:
		opt(x.Size)
		opt(x.Body)
	case *ast.TaggedBlock:
		opt(x.Body)
	case *ast.TaggedString:
		parts(x.Parts)
	case *ast.QuoteBlock:
		opt(x.Body)
		opt(x.Fields)
	case *ast.AgentExpr:
		opt(x.Params)
		opt(x.Config)
		opt(x.Flow)
	}
}
