// Package syntax holds the small syntax-tree questions several Harn lint
// rules ask: the name a call calls, the text of a plain string literal,
// and a walk that knows each node's enclosing nodes.
package syntax

import "github.com/harnlang/harn-check/grammar/harn/ast"

// Callee returns the name of a call of a plain name, `f(...)`, or "" for
// any other callee (a method, a computed function).
func Callee(c *ast.Call) string {
	if id, ok := c.Func.(*ast.Ident); ok && id != nil {
		return id.Name
	}
	return ""
}

// StringValue returns the text of a string literal without interpolation
// (through parentheses).
func StringValue(e ast.Node) (string, bool) {
	for {
		switch x := e.(type) {
		case *ast.Paren:
			e = x.X
		case *ast.StringLit:
			if x == nil {
				return "", false
			}
			return x.Value()
		default:
			return "", false
		}
	}
}

// Arg returns the i-th argument of a call, or nil.
func Arg(c *ast.Call, i int) ast.Expr {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

// Walk calls f for every node below root in source order with the stack
// of its enclosing nodes (root first, the node's parent last); when f
// returns false the node's children are skipped. The stack is reused:
// copy it to keep it.
func Walk(root ast.Node, f func(n ast.Node, stack []ast.Node) bool) {
	var stack []ast.Node
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		if len(stack) > ast.MaxDepth || !f(n, stack) {
			return
		}
		stack = append(stack, n)
		ast.EachChild(n, visit)
		stack = stack[:len(stack)-1]
	}
	visit(root)
}

// IsFunction reports whether n starts a new function body: a declared
// function, a tool, a pipeline, an override, a closure or a function
// literal.
func IsFunction(n ast.Node) bool {
	switch n.(type) {
	case *ast.FuncDecl, *ast.ToolDecl, *ast.Pipeline, *ast.Override, *ast.Closure, *ast.FuncLit:
		return true
	}
	return false
}

// Pure reports whether evaluating e has no effect (literals, names and
// operators over them), so that dropping it changes nothing.
func Pure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.IntLit, *ast.FloatLit, *ast.BoolLit, *ast.NilLit, *ast.DurationLit, *ast.Ident:
		return true
	case *ast.StringLit:
		for _, part := range e.Parts {
			if part.Expr != nil && !Pure(part.Expr) {
				return false
			}
		}
		return true
	case *ast.Paren:
		return Pure(e.X)
	case *ast.Unary:
		return Pure(e.X)
	case *ast.Binary:
		return Pure(e.Left) && Pure(e.Right)
	case *ast.Conditional:
		return Pure(e.Cond) && Pure(e.Then) && Pure(e.Else)
	case *ast.Member:
		return Pure(e.X)
	case *ast.Index:
		return Pure(e.X) && Pure(e.Index)
	case *ast.ListLit:
		for _, x := range e.Elements {
			if !Pure(x) {
				return false
			}
		}
		return true
	case *ast.Range:
		return Pure(e.Start) && Pure(e.End)
	}
	return false
}
