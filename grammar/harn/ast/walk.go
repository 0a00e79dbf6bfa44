package ast

// MaxDepth bounds every walk over the syntax tree. Nodes nested deeper are
// not visited: a pathological file gets fewer findings, never a stack
// overflow.
const MaxDepth = 2000

// Inspect calls f for n and, while f returns true, for every node below n
// in source order, up to MaxDepth levels. Comments are not visited (they
// hang off the File).
func Inspect(n Node, f func(Node) bool) {
	inspect(n, f, 0)
}

func inspect(n Node, f func(Node) bool, depth int) {
	if IsNil(n) || depth > MaxDepth || !f(n) {
		return
	}
	EachChild(n, func(c Node) { inspect(c, f, depth+1) })
}

// IsNil reports a nil interface or a typed nil pointer inside it (a node
// field that was absent in the source).
func IsNil(n Node) bool {
	if n == nil {
		return true
	}
	switch x := n.(type) {
	case *Block:
		return x == nil
	case *Ident:
		return x == nil
	case *StringLit:
		return x == nil
	case *Catch:
		return x == nil
	case *SelectTimeout:
		return x == nil
	case *Closure:
		return x == nil
	case *If:
		return x == nil
	}
	return false
}

// EachChild calls f for every direct child node of n in source order
// (absent children skipped).
func EachChild(n Node, f func(Node)) {
	c := func(x Node) {
		if !IsNil(x) {
			f(x)
		}
	}
	switch x := n.(type) {
	case *File:
		for _, s := range x.Items {
			c(s)
		}
	case *Error:
		for _, p := range x.Partial {
			c(p)
		}
	case *Import:
		if x.Source != nil {
			c(x.Source)
		}
		for _, p := range x.Path {
			c(p)
		}
		for _, id := range x.Names {
			c(id)
		}
	case *Attribute:
		c(x.Name)
		for _, a := range x.Args {
			c(a)
		}
	case *AttributeArg:
		c(x.Name)
		c(x.Value)
	case *Pipeline:
		attrs(x.Attrs, c)
		c(x.Name)
		params(x.Params, c)
		c(x.ReturnType)
		c(x.Parent)
		c(x.Body)
	case *Override:
		c(x.Name)
		params(x.Params, c)
		c(x.Body)
	case *FuncDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		params(x.Params, c)
		c(x.ReturnType)
		c(x.Throws)
		for _, w := range x.Where {
			c(w)
		}
		c(x.Body)
	case *Param:
		c(x.Name)
		c(x.Type)
		c(x.Default)
	case *TypeParam:
		c(x.Name)
	case *WherePredicate:
		c(x.Name)
		for _, b := range x.Bounds {
			c(b)
		}
	case *TypeAlias:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		c(x.Type)
	case *StructDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		for _, fl := range x.Fields {
			c(fl)
		}
	case *StructField:
		c(x.Name)
		c(x.Type)
	case *EnumDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		for _, v := range x.Variants {
			c(v)
		}
	case *Variant:
		c(x.Name)
		for _, vf := range x.Fields {
			c(vf)
		}
	case *VariantField:
		c(x.Name)
		c(x.Type)
	case *InterfaceDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		for _, at := range x.Types {
			c(at)
		}
		for _, m := range x.Methods {
			c(m)
		}
	case *MethodSig:
		c(x.Name)
		for _, tp := range x.TypeParams {
			c(tp)
		}
		params(x.Params, c)
		c(x.ReturnType)
		c(x.Throws)
	case *AssociatedType:
		c(x.Name)
		c(x.Default)
	case *ImplDecl:
		attrs(x.Attrs, c)
		c(x.Type)
		for _, m := range x.Methods {
			c(m)
		}
	case *ToolDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		params(x.Params, c)
		c(x.ReturnType)
		c(x.Throws)
		if x.Description != nil {
			c(x.Description)
		}
		for _, s := range x.Body {
			c(s)
		}
	case *SkillDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		for _, fl := range x.Fields {
			c(fl)
		}
	case *SkillField:
		c(x.Name)
		c(x.Value)
	case *EvalPackDecl:
		attrs(x.Attrs, c)
		c(x.Name)
		if x.ID != nil {
			c(x.ID)
		}
		for _, fl := range x.Fields {
			c(fl)
		}
		for _, s := range x.Body {
			c(s)
		}
		for _, b := range x.Summarizes {
			c(b)
		}
	case *EvalPackField:
		c(x.Name)
		c(x.Value)

	case *StringLit:
		for _, p := range x.Parts {
			c(p.Expr)
		}
	case *ListLit:
		for _, e := range x.Elements {
			c(e)
		}
	case *DictLit:
		for _, e := range x.Entries {
			c(e)
		}
	case *DictEntry:
		c(x.Name)
		if x.StringKey != nil {
			c(x.StringKey)
		}
		c(x.Computed)
		c(x.Value)
	case *Spread:
		c(x.Value)
	case *Closure:
		params(x.Params, c)
		for _, s := range x.Body {
			c(s)
		}
	case *FuncLit:
		params(x.Params, c)
		c(x.ReturnType)
		c(x.Throws)
		c(x.Body)
	case *StructLit:
		c(x.Name)
		for _, fl := range x.Fields {
			c(fl)
		}
	case *FieldInit:
		c(x.Name)
		c(x.Value)
	case *Paren:
		c(x.X)
	case *Call:
		c(x.Func)
		for _, t := range x.TypeArgs {
			c(t)
		}
		for _, a := range x.Args {
			c(a)
		}
	case *Approval:
		for _, a := range x.Args {
			c(a)
		}
	case *ApprovalArg:
		c(x.Name)
		c(x.Value)
	case *Member:
		c(x.X)
		c(x.Name)
	case *Index:
		c(x.X)
		c(x.Index)
	case *Slice:
		c(x.X)
		c(x.Low)
		c(x.High)
	case *Propagate:
		c(x.X)
	case *Unary:
		c(x.X)
	case *Rethrow:
		c(x.X)
	case *Binary:
		c(x.Left)
		c(x.Right)
	case *Conditional:
		c(x.Cond)
		c(x.Then)
		c(x.Else)
	case *Range:
		c(x.Start)
		c(x.End)
	case *Pipe:
		c(x.Left)
		c(x.Right)
	case *If:
		c(x.Cond)
		c(x.Then)
		c(x.Else)
	case *Match:
		c(x.Value)
		for _, a := range x.Arms {
			c(a)
		}
	case *MatchArm:
		c(x.Pattern)
		c(x.Guard)
		c(x.Body)
	case *Try:
		c(x.Body)
		c(x.Catch)
		c(x.Finally)
	case *Catch:
		c(x.Name)
		c(x.Type)
		c(x.Body)
	case *Retry:
		c(x.Count)
		c(x.Body)
	case *Deadline:
		c(x.Duration)
		c(x.Body)
	case *Parallel:
		c(x.Value)
		c(x.Options)
		c(x.Body)
	case *Spawn:
		c(x.Body)

	case *LiteralPattern:
		c(x.Value)
	case *OrPattern:
		for _, a := range x.Alternatives {
			c(a)
		}
	case *DictPattern:
		for _, e := range x.Entries {
			c(e)
		}
		c(x.Rest)
	case *DictPatternEntry:
		c(x.Pattern)
		c(x.Default)
	case *ListPattern:
		for _, e := range x.Elements {
			c(e)
		}
		c(x.Rest)
	case *ListPatternElement:
		c(x.Pattern)
		c(x.Default)
	case *PairPattern:
		c(x.First)
		c(x.Second)
	case *VariantPattern:
		c(x.Enum)
		c(x.Variant)
		for _, a := range x.Args {
			c(a)
		}

	case *Block:
		for _, s := range x.Stmts {
			c(s)
		}
	case *VarDecl:
		c(x.Pattern)
		c(x.Type)
		c(x.Value)
	case *Assign:
		c(x.Target)
		c(x.Value)
	case *Return:
		c(x.Value)
	case *Throw:
		c(x.Value)
	case *For:
		c(x.Pattern)
		c(x.Iterable)
		c(x.Body)
	case *While:
		c(x.Cond)
		c(x.Body)
	case *Guard:
		c(x.Cond)
		c(x.Else)
	case *Require:
		c(x.Cond)
		c(x.Message)
	case *Defer:
		c(x.Body)
	case *Mutex:
		c(x.Body)
	case *Select:
		for _, sc := range x.Cases {
			c(sc)
		}
		c(x.Timeout)
		c(x.Default)
	case *SelectCase:
		c(x.Name)
		c(x.Channel)
		c(x.Body)
	case *SelectTimeout:
		c(x.Duration)
		c(x.Body)
	case *BlockStmt:
		c(x.Body)
	case *Yield:
		c(x.Value)
	case *Emit:
		c(x.Value)

	case *NamedType:
		c(x.Name)
		for _, a := range x.Args {
			c(a)
		}
	case *ListType:
		c(x.Element)
	case *ShapeType:
		for _, fl := range x.Fields {
			c(fl)
		}
	case *ShapeField:
		c(x.Type)
	case *UnionType:
		for _, m := range x.Members {
			c(m)
		}
	case *IntersectionType:
		for _, m := range x.Members {
			c(m)
		}
	case *OptionalType:
		c(x.Type)
	case *LiteralType:
		c(x.Value)
	case *FuncType:
		for _, p := range x.Params {
			c(p)
		}
		c(x.Result)
	}
}

func attrs(as []*Attribute, c func(Node)) {
	for _, a := range as {
		c(a)
	}
}

func params(ps []*Param, c func(Node)) {
	for _, p := range ps {
		c(p)
	}
}
