package infer

import (
	"fmt"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// block checks statements in sc; after an `if` whose branch always exits,
// the rest of the block sees the opposite narrowing. It returns the type
// of the last statement when it is an expression.
func (c *checker) block(sc *scope, stmts []ast.Stmt) types.Type {
	if sc != c.module {
		// Types declared in a block are visible in all of it, and only
		// there.
		defer c.declareTypes(sc, stmts)()
	}
	var last types.Type = types.NilType
	for i, s := range stmts {
		c.afterMatch = nil
		last = c.stmtValue(sc, s, i == len(stmts)-1)
		if c.exitsNode(s) {
			// A block ending in return, throw, break or continue has no
			// value: in an expression branch it is never.
			last = types.NeverType
		}
		if m, ok := s.(*ast.Match); ok && c.afterMatch != nil && c.afterMatch.match == m {
			sc.refine(c.afterMatch.key, c.afterMatch.t)
		}
		c.afterMatch = nil
		if iff, ok := s.(*ast.If); ok {
			thenExits := c.exits(iff.Then)
			elseExits := iff.Else != nil && c.exitsNode(iff.Else)
			switch {
			case thenExits && !elseExits:
				c.apply(sc, c.cond(sc, iff.Cond, false))
			case elseExits && !thenExits:
				c.apply(sc, c.cond(sc, iff.Cond, true))
			}
		}
	}
	return last
}

func (c *checker) apply(sc *scope, m narrowing) {
	for v, t := range m {
		sc.refine(v, t)
	}
}

// exits reports whether a block always leaves by return, throw, break or
// continue.
func (c *checker) exits(b *ast.Block) bool {
	if b == nil || len(b.Stmts) == 0 {
		return false
	}
	return c.exitsNode(b.Stmts[len(b.Stmts)-1])
}

// exitsNode reports whether n always leaves. Answers for if and match are
// remembered: every enclosing block asks about its last statement again,
// so nested ifs would otherwise cost time quadratic in their depth.
func (c *checker) exitsNode(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Return, *ast.Throw, *ast.Break, *ast.Continue:
		return true
	case *ast.Block:
		return c.exits(n)
	case *ast.If, *ast.Match:
		if v, ok := c.exitMemo[n]; ok {
			return v
		}
		v := c.exitsUncached(n)
		if c.exitMemo == nil {
			c.exitMemo = map[ast.Node]bool{}
		}
		c.exitMemo[n] = v
		return v
	}
	return false
}

func (c *checker) exitsUncached(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.If:
		return c.exits(n.Then) && n.Else != nil && c.exitsNode(n.Else)
	case *ast.Match:
		if len(n.Arms) == 0 {
			return false
		}
		for _, a := range n.Arms {
			if !c.exits(a.Body) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *checker) stmt(sc *scope, s ast.Stmt) { c.stmtValue(sc, s, false) }

// stmtValue checks one statement; last marks the final statement of a
// block, whose value may be the block's value.
func (c *checker) stmtValue(sc *scope, s ast.Stmt, last bool) types.Type {
	saved := c.curStmt
	c.curStmt = s.Pos()
	defer func() { c.curStmt = saved }()
	switch s := s.(type) {
	case *ast.VarDecl:
		c.varDecl(sc, s)
	case *ast.Assign:
		c.assign(sc, s)
	case *ast.Return:
		if s.Value != nil {
			t := c.expr(sc, s.Value)
			if sc.fn != nil {
				sc.fn.returns = append(sc.fn.returns, t)
				if sc.fn.declared != nil {
					c.facts.Returns = append(c.facts.Returns, analysis.Return{Node: s, Declared: sc.fn.declared, Value: t})
				}
			}
		} else if sc.fn != nil {
			sc.fn.returns = append(sc.fn.returns, types.NilType)
		}
	case *ast.Throw:
		c.expr(sc, s.Value)
	case *ast.For:
		it := c.expr(sc, s.Iterable)
		inner := newScope(sc)
		c.bindPattern(inner, s.Pattern, elemType(it), kindLet, nil)
		c.block(inner, blockStmts(s.Body))
	case *ast.While:
		t := c.expr(sc, s.Cond)
		c.condition(s.Cond, t, "while")
		inner := newScope(sc)
		c.apply(inner, c.cond(sc, s.Cond, true))
		c.block(inner, blockStmts(s.Body))
	case *ast.Guard:
		t := c.expr(sc, s.Cond)
		c.condition(s.Cond, t, "guard")
		inner := newScope(sc)
		c.apply(inner, c.cond(sc, s.Cond, false))
		c.block(inner, blockStmts(s.Else))
		c.apply(sc, c.cond(sc, s.Cond, true))
	case *ast.Require:
		t := c.expr(sc, s.Cond)
		c.condition(s.Cond, t, "require")
		if s.Message != nil {
			c.expr(sc, s.Message)
		}
		c.apply(sc, c.cond(sc, s.Cond, true))
	case *ast.Defer:
		c.block(newScope(sc), blockStmts(s.Body))
	case *ast.Mutex:
		c.block(newScope(sc), blockStmts(s.Body))
	case *ast.Select:
		for _, cs := range s.Cases {
			c.expr(sc, cs.Channel)
			inner := newScope(sc)
			if cs.Name != nil {
				inner.declare(&variable{name: cs.Name.Name, kind: kindLet, typ: types.AnyType, decl: cs.Name.Span})
			}
			c.block(inner, blockStmts(cs.Body))
		}
		if s.Timeout != nil {
			c.expr(sc, s.Timeout.Duration)
			c.block(newScope(sc), blockStmts(s.Timeout.Body))
		}
		if s.Default != nil {
			c.block(newScope(sc), blockStmts(s.Default))
		}
	case *ast.Yield:
		if sc.fn != nil && sc.fn.gen {
			c.facts.StreamMisuses = append(c.facts.StreamMisuses, analysis.StreamMisuse{Span: s.Span, Yield: true})
		}
		if s.Value != nil {
			c.expr(sc, s.Value)
		}
	case *ast.Emit:
		c.expr(sc, s.Value)
		if sc.fn == nil || !sc.fn.gen {
			c.facts.StreamMisuses = append(c.facts.StreamMisuses, analysis.StreamMisuse{Span: s.Span})
		}
	case *ast.Break, *ast.Continue:
	case *ast.FuncDecl:
		if sc == c.module {
			return types.NilType
		}
		info := c.signature(s)
		v := &variable{name: nameOf(s.Name), kind: kindFunc, decl: s.Name.Span, fn: info, typ: info.sig}
		sc.declare(v)
		info.inProgress = true
		res := c.funcBody(s.Params, s.ReturnType, s.Body, sc, info.hasResult, s.Gen)
		if !info.hasResult {
			info.sig.Result = res
		}
		info.inProgress, info.checked = false, true
	case *ast.Pipeline:
		if s.Parent != nil {
			// `extends parent` names the pipeline it extends.
			sc.use(s.Parent, sc.lookup(s.Parent.Name))
		}
		inner := newScope(sc)
		inner.fn = &fnCtx{}
		if s.ReturnType != nil {
			inner.fn.declared = c.convType(s.ReturnType, nil)
		}
		c.paramOrder(s.Params)
		for _, p := range s.Params {
			if p.Name != nil && p.Type == nil && p.Name.Name == "harness" {
				p := *p
				p.Type = &ast.NamedType{Name: &ast.Ident{Name: "Harness"}}
				c.params(inner, []*ast.Param{&p})
				continue
			}
			c.params(inner, []*ast.Param{p})
		}
		c.block(inner, blockStmts(s.Body))
	case *ast.Override:
		inner := newScope(sc)
		inner.fn = &fnCtx{}
		c.params(inner, s.Params)
		c.block(inner, blockStmts(s.Body))
	case *ast.ToolDecl:
		c.declareRegistry(sc, s)
		inner := newScope(sc)
		inner.fn = &fnCtx{}
		c.params(inner, s.Params)
		c.block(inner, s.Body)
	case *ast.SkillDecl:
		for _, f := range s.Fields {
			c.expr(sc, f.Value)
		}
		c.declareRegistry(sc, s)
	case *ast.EvalPackDecl:
		// The pack's fields are names in its body; the pack itself is
		// one in its summaries and after it.
		inner := newScope(sc)
		for _, f := range s.Fields {
			t := c.expr(inner, f.Value)
			if f.Name != nil {
				inner.declare(&variable{name: f.Name.Name, kind: kindLet, typ: widen(t), decl: f.Name.Span})
			}
		}
		c.block(inner, s.Body)
		c.declareRegistry(sc, s)
		for _, b := range s.Summarizes {
			c.block(newScope(inner), blockStmts(b))
		}
	case *ast.BlockStmt:
		c.block(newScope(sc), blockStmts(s.Body))
	case *ast.ImplDecl:
		c.modelMethods(s)
		if sc != c.module {
			// Methods of a type declared in a block; the module's are
			// checked with the other functions.
			for _, m := range s.Methods {
				c.funcBody(m.Params, m.ReturnType, m.Body, sc, true, m.Gen)
			}
		}
	case *ast.Import, *ast.TypeAlias, *ast.StructDecl, *ast.EnumDecl, *ast.InterfaceDecl:
	case *ast.Error:
		for _, p := range s.Partial {
			if st, ok := p.(ast.Stmt); ok {
				c.stmt(sc, st)
			}
		}
	case ast.Expr:
		t := c.expr(sc, s)
		// The last expression of a block may be its value (implicitly
		// returned or used by an enclosing expression); only top-level
		// script statements are certainly dropped there.
		if stdlib.IsOutcome(t) && (!last || sc.fn == c.module.fn) {
			c.facts.Discards = append(c.facts.Discards, analysis.Discard{Span: s.Pos(), Type: t, Kind: "statement"})
		}
		return t
	}
	return types.NilType
}

func blockStmts(b *ast.Block) []ast.Stmt {
	if b == nil {
		return nil
	}
	return b.Stmts
}

func elemType(t types.Type) types.Type {
	switch u := types.Unalias(types.StripNil(t)).(type) {
	case *types.List:
		return u.Elem
	case *types.Tuple:
		return types.NewUnion(u.Elems...)
	}
	return types.AnyType
}

func (c *checker) varDecl(sc *scope, d *ast.VarDecl) {
	var vt types.Type = types.AnyType
	if d.Value != nil {
		vt = c.expr(sc, d.Value)
	}
	var declared types.Type
	if d.Type != nil {
		declared = c.convType(d.Type, nil)
	}
	kind := kindLet
	if d.Kind == ast.Const {
		kind = kindConst
	}
	t := vt
	if declared != nil {
		// The declared type wins; the initialiser is checked against it
		// by a rule.
		t = declared
		if d.Value != nil {
			c.facts.Inits = append(c.facts.Inits, analysis.Init{Decl: d, Declared: declared, Value: vt})
		}
	} else {
		// An inferred binding takes the base type of a literal: a constant
		// flag edited between runs must not make comparisons "always false".
		t = widen(vt)
	}
	nilInit := declared == nil && d.Value != nil && kind != kindConst && types.IsBasic(vt, types.Nil)
	if nilInit {
		// `var best = nil`: a slot for a value assigned later, perhaps
		// further down a loop body than a use (`if best == nil || d <
		// best`). Until the walk meets its first assignment nothing is
		// certain about it; from there it holds that type or nil.
		t = types.AnyType
	}
	_, wild := d.Pattern.(*ast.WildcardPattern)
	if id, ok := d.Pattern.(*ast.Ident); wild || (ok && id.Name == "_") {
		if stdlib.IsOutcome(vt) {
			c.facts.Discards = append(c.facts.Discards, analysis.Discard{Span: d.Span, Type: vt, Kind: "discard binding"})
		}
		return
	}
	c.bindPattern(sc, d.Pattern, t, kind, d)
	if d.Value != nil && c.holdsLlm(sc, d.Value, vt) {
		for _, name := range patternNames(d.Pattern) {
			if v := sc.vars[name]; v != nil {
				v.holdsLlm = true
			}
		}
	}
	if id, ok := d.Pattern.(*ast.Ident); ok && nilInit {
		if v := sc.vars[id.Name]; v != nil {
			v.nilInit = true
		}
	}
}

// bindPattern declares the names of a binding pattern with parts of t.
func (c *checker) bindPattern(sc *scope, p ast.Pattern, t types.Type, kind varKind, d *ast.VarDecl) {
	switch p := p.(type) {
	case *ast.Ident:
		if p.Name == "_" {
			return
		}
		v := &variable{name: p.Name, kind: kind, typ: t, decl: p.Span, home: sc}
		if d != nil && d.Kind != ast.Var {
			v.immutable = d.Kind.String()
		}
		if d != nil {
			v.init = d.Value
			if d.Type != nil {
				v.declared = t
			}
			v.binding = &analysis.Binding{Name: p.Name, Span: p.Span, Type: t}
			c.facts.Bindings = append(c.facts.Bindings, v.binding)
		}
		if old := sc.vars[p.Name]; old != nil && old.pending {
			// A top-level binding declared ahead: complete it in place so
			// earlier resolutions see the final type.
			old.typ, old.kind, old.init, old.declared, old.binding, old.pending, old.home, old.immutable = v.typ, v.kind, v.init, v.declared, v.binding, false, sc, v.immutable
			return
		} else if old != nil && old.immutable != "" && v.immutable != "" {
			c.facts.Redeclarations = append(c.facts.Redeclarations, analysis.Redeclaration{Span: p.Span, Name: p.Name, Prev: old.decl})
		}
		sc.declare(v)
	case *ast.DictPattern:
		c.facts.Destructures = append(c.facts.Destructures, analysis.Destructure{Span: p.Span, Value: t})
		for _, e := range p.Entries {
			ft := c.readField(sc, nil, t, e.Key, e.Span, e.KeySpan, "destructuring", false)
			if e.Default != nil {
				c.expr(sc, e.Default)
			}
			if e.Pattern != nil {
				c.bindPattern(sc, e.Pattern, ft, kind, nil)
			} else {
				sc.declare(&variable{name: e.Key, kind: kind, typ: ft, decl: e.KeySpan})
			}
		}
		if p.Rest != nil {
			sc.declare(&variable{name: p.Rest.Name, kind: kind, typ: types.AnyType, decl: p.Rest.Span})
		}
	case *ast.ListPattern:
		c.facts.Destructures = append(c.facts.Destructures, analysis.Destructure{Span: p.Span, Value: t, List: true})
		et := elemType(t)
		for _, e := range p.Elements {
			if e.Default != nil {
				c.expr(sc, e.Default)
			}
			c.bindPattern(sc, e.Pattern, et, kind, nil)
		}
		if p.Rest != nil {
			sc.declare(&variable{name: p.Rest.Name, kind: kind, typ: t, decl: p.Rest.Span})
		}
	case *ast.PairPattern:
		c.bindPattern(sc, p.First, types.AnyType, kind, nil)
		c.bindPattern(sc, p.Second, types.AnyType, kind, nil)
	}
}

func (c *checker) assign(sc *scope, a *ast.Assign) {
	vt := c.expr(sc, a.Value)
	c.markLlm(sc, a.Target, a.Value, vt)
	switch t := unparen(a.Target).(type) {
	case *ast.Ident:
		if v := sc.lookup(t.Name); v != nil {
			sc.use(t, v)
			if v.immutable != "" {
				c.facts.ImmutableWrites = append(c.facts.ImmutableWrites, analysis.ImmutableWrite{Span: t.Span, Name: t.Name, Kind: v.immutable, Decl: v.decl})
			}
			v.reassigned = true
			if v.nilInit && a.Op == ast.AssignPlain && !types.IsBasic(vt, types.Nil) {
				// `var x = nil` then `x = value`: the variable was a slot
				// for a later value; from its first assignment it holds
				// that value's type or nil (any stays any).
				v.nilInit = false
				v.typ = types.Optional(widen(vt))
				if v.binding != nil {
					v.binding.Type = v.typ
				}
			}
			// From here on the variable holds the assigned value: a plain
			// assignment of a fitting, certain type narrows to it; anything
			// else resets to the declared (or first inferred) type.
			next := v.typ
			if a.Op == ast.AssignPlain && !types.IsGradual(vt) && types.Assignable(vt, v.typ) {
				next = widen(vt)
			}
			sc.refine(v, next)
		} else if t.Name != "_" {
			c.facts.Unresolved = append(c.facts.Unresolved, analysis.Unresolved{Ident: t, Suggest: c.suggest(sc, t.Name, false)})
		}
	case *ast.Member, *ast.Index:
		root := rootIdent(t)
		if root != nil {
			if v := sc.lookup(root.Name); v != nil {
				v.fieldWritten = true
			}
		}
		// Evaluate the receiver for name resolution, without counting the
		// write as a read of the field.
		switch t := t.(type) {
		case *ast.Member:
			c.expr(sc, t.X)
		case *ast.Index:
			c.expr(sc, t.X)
			c.expr(sc, t.Index)
		}
	default:
		c.expr(sc, a.Target)
	}
}

func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.Member:
			e = x.X
		case *ast.Index:
			e = x.X
		case *ast.Paren:
			e = x.X
		default:
			return nil
		}
	}
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// condition records a boolean use.
func (c *checker) condition(e ast.Expr, t types.Type, ctx string) {
	c.facts.Conditions = append(c.facts.Conditions, analysis.Condition{Expr: e, Type: t, Context: ctx})
}

// cond returns the narrowing that holds when e evaluates to truth.
func (c *checker) cond(sc *scope, e ast.Expr, truth bool) narrowing {
	switch e := unparen(e).(type) {
	case *ast.Unary:
		if e.Op == ast.Not {
			return c.cond(sc, e.X, !truth)
		}
	case *ast.Binary:
		switch e.Op {
		case ast.And, ast.Or:
			if (e.Op == ast.And) != truth {
				// `a || b` true (or `a && b` false): either a held, or a
				// failed and b held; a key narrowed on both paths gets
				// the union of the two.
				viaLeft := c.cond(sc, e.Left, truth)
				tmp := newScope(sc)
				c.apply(tmp, c.cond(sc, e.Left, !truth))
				viaRight := c.cond(tmp, e.Right, truth)
				var out narrowing
				for k, lt := range viaLeft {
					if rt, ok := viaRight[k]; ok {
						if out == nil {
							out = narrowing{}
						}
						out[k] = types.NewUnion(lt, rt)
					}
				}
				return out
			}
			left := c.cond(sc, e.Left, truth)
			tmp := newScope(sc)
			c.apply(tmp, left)
			right := c.cond(tmp, e.Right, truth)
			for v, t := range right {
				if left == nil {
					left = narrowing{}
				}
				left[v] = t
			}
			return left
		case ast.InOp, ast.NotInOp:
			// `x.kind in ["a", "b"]`: the tag is one of the literals.
			list, ok := unparen(e.Right).(*ast.ListLit)
			if !ok || len(list.Elements) == 0 {
				return nil
			}
			in := (e.Op == ast.InOp) == truth
			var out narrowing
			for i, el := range list.Elements {
				m := c.tagTest(sc, e.Left, el, in)
				if m == nil {
					return nil
				}
				if i == 0 {
					out = m
					continue
				}
				for k, t := range m {
					prev, ok := out[k]
					if !ok {
						return nil
					}
					if in {
						out[k] = types.NewUnion(prev, t)
					} else {
						// Not any of them: exclude each in turn.
						tmp := newScope(sc)
						tmp.refine(k, prev)
						if m2 := c.tagTest(tmp, e.Left, el, false); m2 != nil {
							out[k] = m2[k]
						}
					}
				}
			}
			return out
		case ast.Equal, ast.NotEqual:
			eq := (e.Op == ast.Equal) == truth
			if m := c.tagTest(sc, e.Left, e.Right, eq); m != nil {
				return m
			}
			return c.tagTest(sc, e.Right, e.Left, eq)
		}
	case *ast.Ident, *ast.Member:
		if key, t, ok := c.target(sc, e); ok && truth {
			return narrowing{key: types.StripNil(t)}
		}
	case *ast.Call:
		// schema_is(x, T) and is_type(x, T): x holds a T.
		if id, ok := unparen(e.Func).(*ast.Ident); ok && truth && len(e.Args) == 2 && sc.lookup(id.Name) == nil &&
			(id.Name == "schema_is" || id.Name == "is_type") {
			if tn, ok := unparen(e.Args[1]).(*ast.Ident); ok && sc.lookup(tn.Name) == nil {
				if a := c.aliases[tn.Name]; a != nil {
					if key, _, ok := c.target(sc, e.Args[0]); ok {
						return narrowing{key: a}
					}
				}
			}
		}
	}
	return nil
}

// typeOfTest narrows for `type_of(x) == "name"`: x is the members of its
// type whose runtime type is named so (from any or unknown, the type so
// named); with eq false, the other members.
func (c *checker) typeOfTest(sc *scope, call *ast.Call, name string, eq bool) narrowing {
	id, ok := unparen(call.Func).(*ast.Ident)
	if !ok || id.Name != "type_of" || len(call.Args) != 1 || sc.lookup(id.Name) != nil {
		return nil
	}
	key, t, ok := c.target(sc, call.Args[0])
	if !ok {
		return nil
	}
	named := runtimeNamed(name)
	if types.IsGradual(t) {
		if eq && named != nil {
			return narrowing{key: named}
		}
		return nil
	}
	var keep []types.Type
	for _, m := range types.Members(t) {
		if (runtimeName(m) == name) == eq {
			keep = append(keep, m)
		}
	}
	if len(keep) == len(types.Members(t)) && !eq {
		return nil
	}
	return narrowing{key: types.NewUnion(keep...)}
}

// runtimeName is what type_of returns for a value of type t, or "" when
// that is not certain.
func runtimeName(t types.Type) string {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Int, types.Float, types.String, types.Bool, types.Nil, types.Bytes:
			return u.String()
		}
	case *types.Literal:
		return runtimeName(u.Base())
	case *types.List, *types.Tuple:
		return "list"
	case *types.Dict:
		return "dict"
	case *types.Record:
		if u.Nominal == "" {
			return "dict"
		}
	case *types.Func:
		return "closure"
	}
	return ""
}

// runtimeNamed is the type of the values type_of names so, or nil.
func runtimeNamed(name string) types.Type {
	switch name {
	case "int":
		return types.IntType
	case "float":
		return types.FloatType
	case "string":
		return types.StringType
	case "bool":
		return types.BoolType
	case "nil":
		return types.NilType
	case "bytes":
		return types.BytesType
	case "list":
		return &types.List{Elem: types.AnyType, Bare: true}
	case "dict":
		return &types.Dict{Key: types.StringType, Value: types.AnyType, Bare: true}
	}
	return nil
}

// target resolves a narrowable expression — a variable, or a member path
// rooted at one (`x.outcome`) — to its narrowing key and current type.
func (c *checker) target(sc *scope, e ast.Expr) (any, types.Type, bool) {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		v := sc.lookup(e.Name)
		if v == nil {
			return nil, nil, false
		}
		return v, sc.typeOf(v), true
	case *ast.Member:
		key, ok := c.pathKey(sc, e)
		if !ok {
			return nil, nil, false
		}
		if t, ok := sc.pathType(key); ok {
			return key, t, true
		}
		return key, c.facts.TypeOf(e), true
	}
	return nil, nil, false
}

// pathKey names a member path rooted at a variable: the variable's
// identity followed by the field names. Optional steps are not paths.
func (c *checker) pathKey(sc *scope, e ast.Expr) (string, bool) {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		v := sc.lookup(e.Name)
		if v == nil {
			return "", false
		}
		return fmt.Sprintf("%p", v), true
	case *ast.Member:
		if e.Optional || e.Name == nil {
			return "", false
		}
		root, ok := c.pathKey(sc, e.X)
		return root + "." + e.Name.Name, ok
	}
	return "", false
}

// tagTest narrows for `x.tag == "lit"`, `x == nil` and `x == "lit"`.
func (c *checker) tagTest(sc *scope, subj, other ast.Expr, eq bool) narrowing {
	subj = unparen(subj)
	switch o := unparen(other).(type) {
	case *ast.NilLit:
		key, t, ok := c.target(sc, subj)
		if !ok {
			return nil
		}
		if eq {
			return narrowing{key: types.NilType}
		}
		return narrowing{key: types.StripNil(t)}
	case *ast.StringLit:
		s, ok := o.Value()
		if !ok {
			return nil
		}
		lit := types.StringLit(s)
		switch x := subj.(type) {
		case *ast.Call:
			return c.typeOfTest(sc, x, s, eq)
		case *ast.Member:
			if x.Name == nil {
				return nil
			}
			key, t, ok := c.target(sc, x.X)
			if !ok {
				return nil
			}
			if eq {
				return narrowing{key: types.Narrow(types.StripNil(t), x.Name.Name, lit)}
			}
			return narrowing{key: types.Exclude(t, x.Name.Name, lit)}
		case *ast.Ident:
			v := sc.lookup(x.Name)
			if v == nil {
				return nil
			}
			t := sc.typeOf(v)
			if _, ok := types.Literals(t); !ok {
				return nil
			}
			if eq {
				return narrowing{v: lit}
			}
			return narrowing{v: dropLiteral(t, lit)}
		}
	}
	return nil
}

func dropLiteral(t types.Type, lit *types.Literal) types.Type {
	var keep []types.Type
	for _, m := range types.Members(t) {
		if l, ok := types.Unalias(m).(*types.Literal); ok && l.Value == lit.Value {
			continue
		}
		keep = append(keep, m)
	}
	return types.NewUnion(keep...)
}
