package ast

// MaxDepth bounds every walk over the syntax tree. Nodes nested deeper are
// not visited: a pathological file gets fewer findings, never a stack
// overflow.
const MaxDepth = 2000

// Inspect calls f for n and, while f returns true, for every node below n
// in source order, up to MaxDepth levels.
func Inspect(n Node, f func(Node) bool) {
	inspect(n, f, 0)
}

func inspect(n Node, f func(Node) bool, depth int) {
	if n == nil || IsNil(n) || depth > MaxDepth || !f(n) {
		return
	}
	EachChild(n, func(c Node) { inspect(c, f, depth+1) })
}

// IsNil reports a typed nil pointer inside the interface (a node field
// that was absent in the source).
func IsNil(n Node) bool {
	switch x := n.(type) {
	case *Block:
		return x == nil
	case *TableExpr:
		return x == nil
	case *Ident:
		return x == nil
	case *StringLit:
		return x == nil
	case *Params:
		return x == nil
	case *TaggedBlock:
		return x == nil
	}
	return false
}

// EachChild calls f for each direct child node of n, in source order.
func EachChild(n Node, f func(Node)) {
	exprs := func(xs []Expr) {
		for _, x := range xs {
			if x != nil {
				f(x)
			}
		}
	}
	stmts := func(xs []Stmt) {
		for _, x := range xs {
			if x != nil {
				f(x)
			}
		}
	}
	opt := func(x Node) {
		if x != nil && !IsNil(x) {
			f(x)
		}
	}
	parts := func(ps []StringPart) {
		for _, p := range ps {
			if p.Expr != nil {
				f(p.Expr)
			}
		}
	}
	switch x := n.(type) {
	case *File:
		stmts(x.Stmts)
	case *Block:
		stmts(x.Stmts)
	case *ExprStmt:
		opt(x.X)
	case *DeclareStmt:
		exprs(x.Left)
		exprs(x.Right)
	case *AssignStmt:
		exprs(x.Left)
		exprs(x.Right)
	case *CompoundAssignStmt:
		opt(x.Left)
		opt(x.Right)
	case *IncDecStmt:
		opt(x.X)
	case *SendStmt:
		opt(x.Chan)
		opt(x.Value)
	case *ReceiveStmt:
		exprs(x.Left)
		opt(x.Right)
	case *ConstDecl:
		for _, nm := range x.Names {
			opt(nm)
		}
		exprs(x.Values)
	case *FuncDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Body)
	case *IfStmt:
		opt(x.Cond)
		opt(x.Then)
		for _, ei := range x.ElseIfs {
			opt(ei.Cond)
			opt(ei.Body)
		}
		opt(x.Else)
	case *ForStmt:
		opt(x.Init)
		opt(x.Cond)
		opt(x.Post)
		exprs(x.Vars)
		opt(x.X)
		opt(x.Body)
	case *SelectStmt:
		for _, c := range x.Cases {
			opt(c.Comm)
			stmts(c.Body)
		}
	case *ReturnStmt:
		exprs(x.Values)
	case *GotoStmt:
		opt(x.Label)
	case *LabelStmt:
		opt(x.Name)
	case *GoStmt:
		opt(x.Call)
	case *DeferStmt:
		opt(x.Call)
	case *ImportDecl:
		for _, s := range x.Specs {
			opt(s.Alias)
			opt(s.Path)
		}
	case *EvaluateStmt:
		opt(x.Name)
		opt(x.Body)
	case *ToolDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Body)
	case *AgentDecl:
		opt(x.Name)
		opt(x.Params)
		opt(x.Config)
		opt(x.Flow)
	case *AgentDefaults:
		opt(x.Config)
	case *BudgetStmt:
		opt(x.Limits)
		opt(x.Body)
	case *Params:
		for _, nm := range x.Names {
			opt(nm)
		}
	case *StringLit:
		parts(x.Parts)
	case *ParenExpr:
		opt(x.X)
	case *UnaryExpr:
		opt(x.X)
	case *BinaryExpr:
		opt(x.Left)
		opt(x.Right)
	case *CallExpr:
		opt(x.Fun)
		exprs(x.Args)
	case *MethodCallExpr:
		opt(x.Recv)
		opt(x.Method)
		exprs(x.Args)
	case *IndexExpr:
		opt(x.X)
		opt(x.Index)
	case *FieldExpr:
		opt(x.X)
		opt(x.Field)
	case *FuncLit:
		opt(x.Params)
		opt(x.Body)
	case *TableExpr:
		for _, fl := range x.Fields {
			if fl.Kind == FieldComputed {
				opt(fl.Key)
			}
			opt(fl.Value)
		}
	case *ListExpr:
		exprs(x.Elems)
	case *DenseArray:
		opt(x.Size)
		opt(x.Body)
	case *TaggedBlock:
		opt(x.Body)
	case *TaggedString:
		parts(x.Parts)
	case *QuoteBlock:
		opt(x.Body)
		opt(x.Fields)
	case *AgentExpr:
		opt(x.Params)
		opt(x.Config)
		opt(x.Flow)
	}
}
