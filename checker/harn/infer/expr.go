package infer

import (
	"fmt"
	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// expr infers e's type in sc and records it.
func (c *checker) expr(sc *scope, e ast.Expr) types.Type {
	if e == nil {
		return types.AnyType
	}
	t := c.exprType(sc, e)
	if t == nil {
		t = types.AnyType
	}
	c.facts.Types[e] = t
	return t
}

func (c *checker) exprType(sc *scope, e ast.Expr) types.Type {
	switch e := e.(type) {
	case *ast.IntLit:
		return types.IntType
	case *ast.FloatLit:
		return types.FloatType
	case *ast.DurationLit:
		return types.IntType
	case *ast.BoolLit:
		return types.BoolType
	case *ast.NilLit:
		return types.NilType
	case *ast.StringLit:
		for _, p := range e.Parts {
			if p.Expr != nil {
				c.expr(sc, p.Expr)
			}
		}
		if s, ok := e.Value(); ok {
			return types.StringLit(s)
		}
		return types.StringType
	case *ast.Ident:
		return c.ident(sc, e, false)
	case *ast.ListLit:
		var elems []types.Type
		gradual := false
		for _, el := range e.Elements {
			t := c.expr(sc, el)
			if sp, ok := el.(*ast.Spread); ok {
				c.facts.Destructures = append(c.facts.Destructures, analysis.Destructure{Span: sp.Span, Value: t, List: true, Spread: true})
				t = elemType(t)
			}
			elems = append(elems, widen(t))
			if types.IsGradual(t) {
				gradual = true
			}
		}
		if len(elems) == 0 || gradual {
			return &types.List{Elem: types.AnyType}
		}
		return &types.List{Elem: types.NewUnion(elems...)}
	case *ast.DictLit:
		rec := &types.Record{}
		// at indexes rec.Fields by name: a later entry of the same name
		// replaces the earlier one, found without a scan.
		at := map[string]int{}
		set := func(f types.Field) {
			if i, ok := at[f.Name]; ok {
				rec.Fields[i] = f
				return
			}
			at[f.Name] = len(rec.Fields)
			rec.Fields = append(rec.Fields, f)
		}
		for _, en := range e.Entries {
			vt := c.expr(sc, en.Value)
			switch {
			case en.Spread:
				c.facts.Destructures = append(c.facts.Destructures, analysis.Destructure{Span: en.Span, Value: vt, Spread: true})
				if r, ok := types.Unalias(vt).(*types.Record); ok && !r.Open {
					for _, f := range r.Fields {
						set(f)
					}
				} else {
					rec.Open = true
				}
			case en.Name != nil:
				set(types.Field{Name: en.Name.Name, Type: widen(vt)})
			case en.StringKey != nil:
				if s, ok := en.StringKey.Value(); ok {
					set(types.Field{Name: s, Type: widen(vt)})
				} else {
					c.expr(sc, en.StringKey)
					rec.Open = true
				}
			case en.Computed != nil:
				c.expr(sc, en.Computed)
				rec.Open = true
			}
		}
		if rec.Open {
			return &types.Dict{Key: types.StringType, Value: types.AnyType, Bare: true}
		}
		return rec
	case *ast.Spread:
		return c.expr(sc, e.Value)
	case *ast.Closure:
		inner := newScope(sc)
		inner.fn = &fnCtx{gen: sc.fn != nil && sc.fn.gen}
		c.params(inner, e.Params)
		res := c.block(inner, e.Body)
		if len(inner.fn.returns) > 0 {
			res = widenUnion(append(inner.fn.returns, res))
		}
		return c.funcType(e.Params, res)
	case *ast.FuncLit:
		res := c.funcBody(e.Params, e.ReturnType, e.Body, sc, e.ReturnType != nil, false)
		return c.funcType(e.Params, res)
	case *ast.StructLit:
		for _, f := range e.Fields {
			c.expr(sc, f.Value)
		}
		if a, ok := c.aliases[nameOf(e.Name)]; ok {
			c.useType(e.Name, a)
			return a
		}
		if e.Name != nil && sc.lookup(e.Name.Name) == nil && !c.facts.Degraded {
			c.facts.Unresolved = append(c.facts.Unresolved, analysis.Unresolved{Ident: e.Name, Suggest: c.suggest(sc, e.Name.Name, false)})
		}
		return types.AnyType
	case *ast.Paren:
		return c.expr(sc, e.X)
	case *ast.Call:
		return c.call(sc, e)
	case *ast.Member:
		return c.member(sc, e)
	case *ast.Index:
		xt := c.expr(sc, e.X)
		c.expr(sc, e.Index)
		if isLlm(xt) {
			c.facts.HiddenCalls = append(c.facts.HiddenCalls, analysis.HiddenCall{Span: e.Span,
				Reason: "a computed property of HarnessLlm (" + types.Describe(xt) + "[...]) is a method chosen at run time; a dynamically computed property call declares no site"})
			return types.AnyType
		}
		kind := "index"
		if s, ok := unparen(e.Index).(*ast.StringLit); ok {
			if key, ok := s.Value(); ok {
				return c.readField(sc, e.X, xt, key, e.Span, e.Index.Pos(), kind, e.Optional)
			}
		}
		if stdlib.IsOutcome(xt) {
			c.facts.Reads = append(c.facts.Reads, analysis.Read{Span: e.Span, NameSpan: e.Index.Pos(), X: e.X, Recv: xt, Dynamic: true, Kind: kind, Stmt: c.curStmt})
		}
		var res types.Type = types.AnyType
		switch u := types.Unalias(types.StripNil(xt)).(type) {
		case *types.List:
			res = u.Elem
		case *types.Dict:
			// A missing key reads nil at run time; the checker stays
			// gradual about it rather than flag every lookup.
			res = u.Value
		}
		if e.Optional {
			res = types.Optional(res)
		}
		return res
	case *ast.Slice:
		xt := c.expr(sc, e.X)
		c.expr(sc, e.Low)
		c.expr(sc, e.High)
		return xt
	case *ast.Propagate:
		c.expr(sc, e.X)
		return types.AnyType
	case *ast.Rethrow:
		if sc.fn == nil || sc.fn.module {
			c.facts.TopLevelRethrows = append(c.facts.TopLevelRethrows, e.Span)
		}
		c.expr(sc, e.X)
		return types.AnyType
	case *ast.Unary:
		t := c.expr(sc, e.X)
		if e.Op == ast.Not {
			c.condition(e.X, t, "!")
			return types.BoolType
		}
		if types.IsBasic(t, types.Int) || types.IsBasic(t, types.Float) {
			return t
		}
		if l, ok := t.(*types.Literal); ok {
			return l.Base()
		}
		return types.AnyType
	case *ast.Binary:
		return c.binary(sc, e)
	case *ast.Conditional:
		ct := c.expr(sc, e.Cond)
		c.condition(e.Cond, ct, "ternary")
		ts := newScope(sc)
		c.apply(ts, c.cond(sc, e.Cond, true))
		a := c.expr(ts, e.Then)
		fs := newScope(sc)
		c.apply(fs, c.cond(sc, e.Cond, false))
		b := c.expr(fs, e.Else)
		return types.NewUnion(widen(a), widen(b))
	case *ast.Range:
		c.expr(sc, e.Start)
		c.expr(sc, e.End)
		return &types.List{Elem: types.IntType}
	case *ast.Pipe:
		c.expr(sc, e.Left)
		inner := newScope(sc)
		inner.declare(&variable{name: "_", kind: kindLet, typ: types.AnyType})
		c.expr(inner, e.Right)
		return types.AnyType
	case *ast.If:
		return c.ifExpr(sc, e)
	case *ast.Match:
		return c.match(sc, e)
	case *ast.Try:
		c.block(newScope(sc), blockStmts(e.Body))
		if e.Catch != nil {
			inner := newScope(sc)
			if e.Catch.Name != nil {
				var t types.Type = types.AnyType
				if e.Catch.Type != nil {
					t = c.convType(e.Catch.Type, nil)
				}
				inner.declare(&variable{name: e.Catch.Name.Name, kind: kindLet, typ: t, decl: e.Catch.Name.Span})
			}
			c.block(inner, blockStmts(e.Catch.Body))
		}
		if e.Finally != nil {
			c.block(newScope(sc), blockStmts(e.Finally))
		}
		return types.AnyType
	case *ast.Retry:
		c.expr(sc, e.Count)
		c.block(newScope(sc), blockStmts(e.Body))
		return types.AnyType
	case *ast.Deadline:
		c.expr(sc, e.Duration)
		c.block(newScope(sc), blockStmts(e.Body))
		return types.AnyType
	case *ast.Parallel:
		c.expr(sc, e.Value)
		if e.Options != nil {
			c.expr(sc, e.Options)
		}
		c.expr(sc, e.Body)
		if e.AsStream {
			return types.AnyType // a stream, in completion order
		}
		return &types.List{Elem: types.AnyType}
	case *ast.Spawn:
		c.block(newScope(sc), blockStmts(e.Body))
		return types.AnyType
	case *ast.Approval:
		// request_approval, dual_control, ask_user, escalate_to: the
		// arguments are ordinary expressions (the names are labels).
		for _, a := range e.Args {
			if a != nil {
				c.expr(sc, a.Value)
			}
		}
		return types.AnyType
	case *ast.Block:
		return c.block(newScope(sc), e.Stmts)
	case *ast.Error:
		for _, p := range e.Partial {
			if x, ok := p.(ast.Expr); ok {
				c.expr(sc, x)
			} else if st, ok := p.(ast.Stmt); ok {
				c.stmt(sc, st)
			}
		}
		return types.AnyType
	}
	return types.AnyType
}

func (c *checker) funcType(params []*ast.Param, res types.Type) types.Type {
	f := &types.Func{Result: res}
	for _, p := range params {
		var t types.Type = types.AnyType
		if p.Type != nil {
			t = c.convType(p.Type, nil)
		}
		f.Params = append(f.Params, types.Param{Name: nameOf(p.Name), Type: t, Optional: p.Default != nil || p.Rest})
		if p.Rest {
			f.Variadic = true
		}
	}
	return f
}

// ident resolves a name; call marks a callee position.
func (c *checker) ident(sc *scope, id *ast.Ident, call bool) types.Type {
	v := sc.lookup(id.Name)
	if id.Name == "_" && v == nil {
		// `_` discards in patterns and is a pipe's placeholder; read
		// anywhere else it names nothing.
		if !c.facts.Degraded {
			c.facts.Unresolved = append(c.facts.Unresolved, analysis.Unresolved{Ident: id, Call: call})
		}
		return types.AnyType
	}
	if v == nil {
		if bt, ok := builtinValue(id.Name); ok {
			return bt
		}
		if _, ok := c.aliases[id.Name]; ok && !call {
			// A type name as a value: a schema (`schema_of(Verdict)`,
			// `schema_is(x, Verdict)`) or an interface's namespace.
			return types.AnyType
		}
		if !c.facts.Degraded {
			c.facts.Unresolved = append(c.facts.Unresolved, analysis.Unresolved{Ident: id, Call: call, Suggest: c.suggest(sc, id.Name, call)})
		}
		return types.AnyType
	}
	sc.use(id, v)
	if v.binding != nil {
		v.binding.Uses++
	}
	if v.fn != nil && !v.fn.checked && (!v.fn.hasResult || v.fn.outcomeHelper) {
		// Infer the result of an unannotated function on first use.
		c.checkFunc(v)
	}
	if v.kind == kindType && !call {
		return types.AnyType
	}
	return sc.typeOf(v)
}

// readField records and types the read x.name of a value of type t.
func (c *checker) readField(sc *scope, x ast.Expr, t types.Type, name string, span, nameSpan ast.Span, kind string, optional bool) types.Type {
	if optional && kind == "property" {
		kind = "optional property"
	}
	c.facts.Reads = append(c.facts.Reads, analysis.Read{Span: span, NameSpan: nameSpan, X: x, Recv: t, Field: name, Kind: kind, Stmt: c.curStmt})
	recv := t
	if optional {
		recv = types.StripNil(t)
	}
	ft, p := types.FieldOf(recv, name, optional)
	switch p {
	case types.FieldAbsent:
		return builtinProperty(recv, name)
	case types.FieldUnknown:
		if types.IsGradual(ft) {
			return types.AnyType
		}
	}
	if optional && types.IsOptional(t) {
		return types.Optional(ft)
	}
	return ft
}

func (c *checker) member(sc *scope, e *ast.Member) types.Type {
	xt := c.expr(sc, e.X)
	if e.Name == nil {
		return types.AnyType
	}
	if et, ok := c.enumMember(sc, e.X, e.Name.Name); ok {
		return et
	}
	if isEvalMethod(e.Name.Name) && isLlm(xt) {
		c.facts.MethodValues = append(c.facts.MethodValues, analysis.MethodValue{Span: e.Span, Method: e.Name.Name})
		return types.AnyType
	}
	t := c.readField(sc, e.X, xt, e.Name.Name, e.Span, e.Name.Span, "property", e.Optional)
	if !e.Optional {
		if key, ok := c.pathKey(sc, e); ok {
			if nt, ok := sc.pathType(key); ok {
				return nt
			}
		}
	}
	return t
}

func isEvalMethod(name string) bool {
	switch name {
	case stdlib.MethodEvaluate, stdlib.MethodEvaluatePredicate, stdlib.MethodEvaluateRequest:
		return true
	}
	return false
}

func isLlm(t types.Type) bool {
	cp, ok := types.Unalias(types.StripNil(t)).(*types.Capability)
	return ok && cp.Name == stdlib.HarnessLlm().Name
}

func (c *checker) ifExpr(sc *scope, e *ast.If) types.Type {
	ct := c.expr(sc, e.Cond)
	c.condition(e.Cond, ct, "if")
	ts := newScope(sc)
	c.apply(ts, c.cond(sc, e.Cond, true))
	a := c.block(ts, blockStmts(e.Then))
	var b types.Type = types.NilType
	if e.Else != nil {
		fs := newScope(sc)
		c.apply(fs, c.cond(sc, e.Cond, false))
		switch el := e.Else.(type) {
		case *ast.Block:
			b = c.block(fs, el.Stmts)
		case *ast.If:
			b = c.expr(fs, el)
		}
	}
	return types.NewUnion(widen(a), widen(b))
}

func (c *checker) binary(sc *scope, e *ast.Binary) types.Type {
	lt := c.expr(sc, e.Left)
	var rt types.Type
	switch e.Op {
	case ast.And, ast.Or:
		c.condition(e.Left, lt, e.Op.String())
		rs := newScope(sc)
		c.apply(rs, c.cond(sc, e.Left, e.Op == ast.And))
		rt = c.expr(rs, e.Right)
		c.condition(e.Right, rt, e.Op.String())
	default:
		rt = c.expr(sc, e.Right)
	}
	c.facts.Binaries = append(c.facts.Binaries, analysis.Binary{Node: e, Left: lt, Right: rt})
	switch e.Op {
	case ast.Or, ast.And, ast.Equal, ast.NotEqual, ast.Less, ast.Greater, ast.LessEq, ast.GreaterEq, ast.InOp, ast.NotInOp:
		return types.BoolType
	case ast.Coalesce:
		return types.NewUnion(types.StripNil(lt), widen(rt))
	}
	l, r := widen(types.Unalias(lt)), widen(types.Unalias(rt))
	if isNum(l) && isNum(r) {
		if types.IsBasic(l, types.Int) && types.IsBasic(r, types.Int) && e.Op != ast.Pow {
			return types.IntType
		}
		return types.FloatType
	}
	if e.Op == ast.Add {
		if types.IsBasic(l, types.String) || types.IsBasic(r, types.String) {
			return types.StringType
		}
		if _, ok := l.(*types.List); ok {
			return l
		}
	}
	if e.Op == ast.Mul && types.IsBasic(l, types.String) {
		return types.StringType
	}
	return types.AnyType
}

func isNum(t types.Type) bool { return types.IsBasic(t, types.Int) || types.IsBasic(t, types.Float) }

// match checks a match expression, narrowing the matched variable (or the
// variable whose tag field is matched) in each arm.
func (c *checker) match(sc *scope, e *ast.Match) types.Type {
	st := c.expr(sc, e.Value)
	subject := st
	switch unparen(e.Value).(type) {
	case *ast.StringLit, *ast.IntLit, *ast.BoolLit:
		// A literal matched directly has its base type: its arms need
		// not be exhaustive (no arm matching throws at run time).
		subject = widen(st)
	}
	if max := c.cfg.Limits.MatchArms; len(e.Arms) > max {
		// Too large to narrow arm by arm (each arm narrows against the
		// ones before it): the arms are checked without narrowing and
		// the match is not judged for exhaustiveness.
		c.limitHit(limits.CodeMatch, e.Span, fmt.Sprintf("this match has %d arms, more than the limit of %d: its arms are checked without narrowing and it is not checked for exhaustiveness", len(e.Arms), max),
			fmt.Sprintf("replace a generated match by a dict lookup, or raise the limit with --%s", limits.FlagMatchArms))
		for _, arm := range e.Arms {
			inner := newScope(sc)
			c.bindPattern(inner, arm.Pattern, types.AnyType, kindLet, nil)
			if arm.Guard != nil {
				c.expr(inner, arm.Guard)
			}
			c.block(inner, blockStmts(arm.Body))
		}
		return types.AnyType
	}
	c.facts.Matches = append(c.facts.Matches, analysis.Match{Node: e, Subject: subject})
	// The narrowed target: the matched variable or path itself, or the
	// variable or path whose tag field is matched (`match o.kind`).
	var key any
	var base types.Type
	field := ""
	if k, t, ok := c.target(sc, e.Value); ok {
		key, base = k, t
	}
	if m, ok := unparen(e.Value).(*ast.Member); ok && m.Name != nil {
		if k, t, ok := c.target(sc, m.X); ok {
			key, base, field = k, t, m.Name.Name
		}
	}
	var seen []*types.Literal
	var results []types.Type
	// survivors are the narrowed types of the arms that fall through; after
	// the match only those remain possible.
	var survivors []types.Type
	allNarrowed := key != nil
	for _, arm := range e.Arms {
		inner := newScope(sc)
		lits, wildcard := armLiterals(arm.Pattern)
		if key != nil {
			var nt types.Type
			switch {
			case wildcard:
				nt = base
				for _, l := range seen {
					nt = excludeTag(nt, field, l)
				}
			case lits != nil:
				var parts []types.Type
				for _, l := range lits {
					parts = append(parts, narrowTag(types.StripNil(base), field, l))
				}
				nt = types.NewUnion(parts...)
			}
			if nt != nil {
				inner.refine(key, nt)
				if !c.exits(arm.Body) {
					survivors = append(survivors, nt)
				}
			} else {
				allNarrowed = false
			}
		}
		if id, ok := arm.Pattern.(*ast.Ident); ok && id.Name != "_" {
			inner.declare(&variable{name: id.Name, kind: kindLet, typ: st, decl: id.Span})
		}
		c.bindMatchPattern(inner, arm.Pattern)
		if arm.Guard != nil {
			gt := c.expr(inner, arm.Guard)
			c.condition(arm.Guard, gt, "if")
			c.apply(inner, c.cond(inner, arm.Guard, true))
		} else {
			seen = append(seen, lits...)
		}
		results = append(results, widen(c.block(inner, blockStmts(arm.Body))))
	}
	if allNarrowed && len(survivors) > 0 {
		c.afterMatch = &pendingNarrow{match: e, key: key, t: types.NewUnion(survivors...)}
	}
	if len(results) == 0 {
		return types.NilType
	}
	return types.NewUnion(results...)
}

func narrowTag(t types.Type, field string, l *types.Literal) types.Type {
	if field == "" {
		if _, ok := types.Literals(t); ok {
			return l
		}
		return t
	}
	return types.Narrow(t, field, l)
}

func excludeTag(t types.Type, field string, l *types.Literal) types.Type {
	if field == "" {
		if _, ok := types.Literals(t); ok {
			return dropLiteral(t, l)
		}
		return t
	}
	return types.Exclude(t, field, l)
}

// armLiterals returns the literal alternatives of a pattern, or wildcard
// when it matches anything.
func armLiterals(p ast.Pattern) ([]*types.Literal, bool) {
	switch p := p.(type) {
	case *ast.WildcardPattern:
		return nil, true
	case *ast.Ident:
		return nil, true
	case *ast.LiteralPattern:
		if l := literalOf(p.Value); l != nil {
			return []*types.Literal{l}, false
		}
	case *ast.OrPattern:
		var out []*types.Literal
		for _, a := range p.Alternatives {
			ls, w := armLiterals(a)
			if w {
				return nil, true
			}
			if ls == nil {
				return nil, false
			}
			out = append(out, ls...)
		}
		return out, false
	}
	return nil, false
}

func literalOf(e ast.Expr) *types.Literal {
	switch v := e.(type) {
	case *ast.StringLit:
		if s, ok := v.Value(); ok {
			return types.StringLit(s)
		}
	case *ast.IntLit:
		return types.IntLit(v.Value)
	case *ast.BoolLit:
		return &types.Literal{Value: v.Value}
	}
	return nil
}

func (c *checker) bindMatchPattern(sc *scope, p ast.Pattern) {
	switch p := p.(type) {
	case *ast.DictPattern:
		for _, e := range p.Entries {
			if e.Pattern != nil {
				if id, ok := e.Pattern.(*ast.Ident); ok {
					sc.declare(&variable{name: id.Name, kind: kindLet, typ: types.AnyType, decl: id.Span})
				} else {
					c.bindMatchPattern(sc, e.Pattern)
				}
			} else {
				sc.declare(&variable{name: e.Key, kind: kindLet, typ: types.AnyType, decl: e.KeySpan})
			}
		}
		if p.Rest != nil {
			sc.declare(&variable{name: p.Rest.Name, kind: kindLet, typ: types.AnyType, decl: p.Rest.Span})
		}
	case *ast.ListPattern:
		for _, e := range p.Elements {
			if id, ok := e.Pattern.(*ast.Ident); ok {
				sc.declare(&variable{name: id.Name, kind: kindLet, typ: types.AnyType, decl: id.Span})
			} else {
				c.bindMatchPattern(sc, e.Pattern)
			}
		}
		if p.Rest != nil {
			sc.declare(&variable{name: p.Rest.Name, kind: kindLet, typ: types.AnyType, decl: p.Rest.Span})
		}
	case *ast.VariantPattern:
		for _, a := range p.Args {
			if id, ok := a.(*ast.Ident); ok {
				sc.declare(&variable{name: id.Name, kind: kindLet, typ: types.AnyType, decl: id.Span})
			} else {
				c.bindMatchPattern(sc, a)
			}
		}
	case *ast.PairPattern:
		for _, a := range []ast.Pattern{p.First, p.Second} {
			if id, ok := a.(*ast.Ident); ok {
				sc.declare(&variable{name: id.Name, kind: kindLet, typ: types.AnyType, decl: id.Span})
			}
		}
	}
}
