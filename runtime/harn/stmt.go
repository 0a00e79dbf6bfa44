package harn

import (
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

func (c *compiler) stmt(s ast.Stmt) evalFn {
	if !c.enter(s.Pos()) {
		return nil
	}
	defer c.leave()
	switch s := s.(type) {
	case *ast.VarDecl:
		return c.varDecl(s)
	case *ast.Assign:
		return c.assign(s)
	case *ast.Return:
		return c.returnStmt(s)
	case *ast.Throw:
		v := c.expr(s.Value)
		st := c.here(s.Span)
		return func(f *frame) (Value, error) {
			x, err := v(f)
			if err != nil {
				return Nil, err
			}
			return Nil, st.wrap(throwValue(x))
		}
	case *ast.Break:
		return func(*frame) (Value, error) { return Nil, errBreak }
	case *ast.Continue:
		return func(*frame) (Value, error) { return Nil, errContinue }
	case *ast.For:
		return c.forStmt(s)
	case *ast.While:
		return c.whileStmt(s)
	case *ast.Guard:
		cond, els := c.borrow(s.Cond), c.block(s.Else)
		return func(f *frame) (Value, error) {
			v, err := cond(f)
			if err != nil {
				return Nil, err
			}
			if !v.Truthy() {
				if _, err := els(f); err != nil {
					return Nil, err
				}
			}
			return Nil, nil
		}
	case *ast.Require:
		cond := c.borrow(s.Cond)
		var msg evalFn
		if s.Message != nil {
			msg = c.borrow(s.Message)
		}
		st := c.here(s.Span)
		return func(f *frame) (Value, error) {
			v, err := cond(f)
			if err != nil {
				return Nil, err
			}
			if v.Truthy() {
				return Nil, nil
			}
			text := "require condition failed"
			if msg != nil {
				m, err := msg(f)
				if err != nil {
					return Nil, err
				}
				text = Display(m)
			}
			return Nil, st.wrap(plainError(text))
		}
	case *ast.Defer:
		c.fn.protected++
		body := c.block(s.Body)
		c.fn.protected--
		return func(f *frame) (Value, error) {
			f.defers = append(f.defers, &deferred{body: body})
			return Nil, nil
		}
	case *ast.Mutex:
		c.fn.protected++
		body := c.block(s.Body)
		c.fn.protected--
		return func(f *frame) (Value, error) { return withDefaultMutex(f, body) }
	case *ast.Select:
		return c.selectStmt(s)
	case *ast.BlockStmt:
		return c.block(s.Body)
	case *ast.Yield:
		return c.yield(s.Value, s.Span, false)
	case *ast.Emit:
		return c.yield(s.Value, s.Span, true)
	case *ast.FuncDecl:
		return c.funcDecl(s)
	case *ast.StructDecl, *ast.EnumDecl, *ast.ImplDecl, *ast.TypeAlias, *ast.ToolDecl, *ast.SkillDecl, *ast.EvalPackDecl:
		return c.typeDecl(s)
	case *ast.InterfaceDecl, *ast.Import:
		return nil
	case *ast.Pipeline:
		c.fail(s.Span, "a pipeline must be declared at the top level")
		return nil
	case *ast.Override:
		return nil
	case *ast.Error:
		c.fail(s.Span, "syntax error")
		return nil
	case ast.Expr:
		return c.expr(s)
	}
	c.fail(s.Pos(), "unsupported statement %T", s)
	return nil
}

func (c *compiler) varDecl(s *ast.VarDecl) evalFn {
	val := c.expr(s.Value)
	// Upstream Harn binds with let immutably and with var mutably
	// (assigning a let is "Cannot assign to immutable binding: x").
	mutable := s.Kind == ast.Var
	if id, ok := s.Pattern.(*ast.Ident); ok {
		if id.Name == "_" {
			return func(f *frame) (Value, error) {
				_, err := val(f)
				return Nil, err
			}
		}
		l := c.declare(id.Name, mutable)
		if l.global < 0 && !l.cell {
			slot := l.slot
			return func(f *frame) (Value, error) {
				v, err := val(f)
				if err != nil {
					return Nil, err
				}
				f.slots[slot] = v
				return Nil, nil
			}
		}
		store := storeLocal(l)
		return func(f *frame) (Value, error) {
			v, err := val(f)
			if err != nil {
				return Nil, err
			}
			store(f, v)
			return Nil, nil
		}
	}
	bind := c.bindPattern(s.Pattern, mutable, c.here(s.Span))
	return func(f *frame) (Value, error) {
		v, err := val(f)
		if err != nil {
			return Nil, err
		}
		return Nil, bind(f, v)
	}
}

func (c *compiler) returnStmt(s *ast.Return) evalFn {
	if s.Value == nil {
		return func(f *frame) (Value, error) {
			f.ret = Nil
			return Nil, errReturn
		}
	}
	if c.fn.protected == 0 && !c.fn.module && c.fn.proto.kind == plainFn {
		switch v := s.Value.(type) {
		case *ast.Call:
			if tc := c.tailCall(v); tc != nil {
				return tc
			}
		case *ast.Pipe:
			// `return x |> f` is `return f(x)`.
			if !mentionsPlaceholder(v.Right, 0) {
				if tc := c.tailCall(&ast.Call{Span: v.Span, Func: v.Right, Args: []ast.Expr{v.Left}}); tc != nil {
					return tc
				}
			}
		}
	}
	val := c.expr(s.Value)
	if c.returns == nil {
		c.returns = map[*ast.Return]evalFn{}
	}
	c.returns[s] = val
	return func(f *frame) (Value, error) {
		v, err := val(f)
		if err != nil {
			return Nil, err
		}
		f.ret = v
		return Nil, errReturn
	}
}

func (c *compiler) whileStmt(s *ast.While) evalFn {
	cond := c.borrow(s.Cond)
	c.fn.loops++
	body := c.block(s.Body)
	c.fn.loops--
	return func(f *frame) (Value, error) {
		th := f.th
		for {
			if err := th.tick(); err != nil {
				return Nil, err
			}
			v, err := cond(f)
			if err != nil {
				return Nil, err
			}
			if !v.Truthy() {
				return Nil, nil
			}
			if _, err := body(f); err != nil {
				if err == errBreak {
					return Nil, nil
				}
				if err != errContinue {
					return Nil, err
				}
			}
		}
	}
}

func (c *compiler) forStmt(s *ast.For) evalFn {
	iter := c.expr(s.Iterable)
	st := c.here(s.Iterable.Pos())
	c.pushBlock()
	_, pairPattern := s.Pattern.(*ast.PairPattern)
	var bind func(f *frame, v Value) error
	if id, ok := s.Pattern.(*ast.Ident); ok && id.Name != "_" {
		store := storeLocal(c.declare(id.Name, true))
		bind = func(f *frame, v Value) error { store(f, v); return nil }
	} else {
		bind = c.bindPattern(s.Pattern, true, c.here(s.Pattern.Pos()))
	}
	c.fn.loops++
	body := c.block(s.Body)
	c.fn.loops--
	c.popBlock()
	return func(f *frame) (Value, error) {
		v, err := iter(f)
		if err != nil {
			return Nil, err
		}
		th := f.th
		// The fast path: lists, the commonest loop.
		if v.k == KindList {
			for _, x := range v.r.(*List).items {
				if err := th.tick(); err != nil {
					return Nil, err
				}
				if err := bind(f, share(x)); err != nil {
					return Nil, err
				}
				if _, err := body(f); err != nil {
					if err == errBreak {
						return Nil, nil
					}
					if err != errContinue {
						return Nil, err
					}
				}
			}
			return Nil, nil
		}
		th.at = st // where a channel's or a stream's next value is awaited
		err = th.iterate(v, !pairPattern, func(x Value) error {
			if err := th.tick(); err != nil {
				return err
			}
			if err := bind(f, x); err != nil {
				return err
			}
			_, err := body(f)
			th.at = st
			if err == errContinue {
				return nil
			}
			return err
		})
		if err == errBreak {
			return Nil, nil
		}
		if err != nil {
			if _, ok := err.(*Error); ok {
				return Nil, st.wrap(err)
			}
			return Nil, err
		}
		return Nil, nil
	}
}

// funcDecl binds a named function where it is declared (top-level ones
// are created before the top level runs, see typeDecl/hoisting).
func (c *compiler) funcDecl(s *ast.FuncDecl) evalFn {
	if s.Name == nil {
		return nil
	}
	p := c.function(s.Name.Name, s.Span, s.Params, s.Body, s.Gen)
	l := c.lookup(s.Name.Name)
	if l == nil {
		l = c.declare(s.Name.Name, true)
	}
	store := storeLocal(l)
	mk := func(f *frame) (Value, error) {
		store(f, Value{k: KindClosure, r: p.makeClosure(f)})
		return Nil, nil
	}
	if c.fn.block.top {
		if s.Name.Name == "main" {
			c.mod.mainFn = "main"
		}
		c.fn.prelude = append(c.fn.prelude, mk)
		return nil
	}
	return mk
}

// function compiles a function body with its parameters.
func (c *compiler) function(name string, sp ast.Span, params []*ast.Param, body *ast.Block, gen bool) *funcProto {
	var stmts []ast.Stmt
	if body != nil {
		stmts = body.Stmts
	}
	return c.compileFunction(name, sp, params, stmts, gen, false)
}

func (c *compiler) closureLit(name string, sp ast.Span, params []*ast.Param, _ ast.Type, body []ast.Stmt, gen bool) evalFn {
	p := c.compileFunction(name, sp, params, body, gen, false)
	return func(f *frame) (Value, error) {
		return Value{k: KindClosure, r: p.makeClosure(f)}, nil
	}
}

func (c *compiler) compileFunction(name string, sp ast.Span, params []*ast.Param, body []ast.Stmt, gen bool, method bool) *funcProto {
	fs := c.newFn(name, sp)
	saved := c.fn
	c.fn = fs
	defer func() { c.fn = saved }()
	p := fs.proto
	p.method = method
	simple := true
	for _, q := range params {
		if q.Name == nil {
			continue
		}
		pr := param{name: q.Name.Name, rest: q.Rest}
		if q.Default != nil {
			pr.def = c.expr(q.Default)
			simple = false
		}
		if q.Type != nil {
			pr.typ = c.runtimeType(q.Type)
			if pr.typ != nil {
				simple = false
			}
		}
		if q.Rest {
			simple = false
		}
		l := c.declare(q.Name.Name, true)
		pr.slot = l.slot
		p.params = append(p.params, pr)
	}
	switch {
	case gen:
		p.kind = streamFn
	case containsYield(body, 0):
		p.kind = generatorFn
	}
	p.simple = simple
	c.compileBody(p, body)
	p.nslots = fs.nslots
	return p
}

// compileBody compiles a function body in the function's own top block:
// p.body, and p.stmts and p.ret for call sites (closureCall). A body of
// plain statements (no deferred blocks, no cells to make on entry) that
// ends with `return E` is its other statements then E; any other body
// is itself.
func (c *compiler) compileBody(p *funcProto, stmts []ast.Stmt) {
	body, fns, hasDefer := c.compileStmtParts(stmts)
	plain := !hasDefer && len(c.cellSlots()) == 0
	body = c.withCells(body)
	if hasDefer {
		body = withDefers(body)
	}
	p.body, p.stmts, p.ret = body, nil, body
	if !plain || len(stmts) == 0 || len(fns) == 0 {
		return
	}
	if r, ok := stmts[len(stmts)-1].(*ast.Return); ok && c.returns[r] != nil {
		p.stmts, p.ret = fns[:len(fns)-1], c.returns[r]
	}
}

// containsYield reports whether a body yields or emits (outside nested
// functions), which makes its function a generator or stream.
func containsYield(stmts []ast.Stmt, depth int) bool {
	found := false
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		if found || n == nil || depth > maxCompileDepth {
			return
		}
		switch n := n.(type) {
		case *ast.Yield, *ast.Emit:
			found = true
		case *ast.Closure, *ast.FuncLit, *ast.FuncDecl, *ast.Spawn, *ast.Parallel:
			return
		case *ast.Block:
			if n == nil {
				return
			}
			for _, s := range n.Stmts {
				walk(s, depth+1)
			}
		case *ast.BlockStmt:
			walk(n.Body, depth+1)
		case *ast.If:
			walk(n.Then, depth+1)
			walk(n.Else, depth+1)
		case *ast.For:
			walk(n.Body, depth+1)
		case *ast.While:
			walk(n.Body, depth+1)
		case *ast.Try:
			walk(n.Body, depth+1)
			if n.Catch != nil {
				walk(n.Catch.Body, depth+1)
			}
			walk(n.Finally, depth+1)
		case *ast.Match:
			for _, a := range n.Arms {
				walk(a.Body, depth+1)
			}
		case *ast.Guard:
			walk(n.Else, depth+1)
		case *ast.Defer:
			walk(n.Body, depth+1)
		case *ast.Retry:
			walk(n.Body, depth+1)
		case *ast.Deadline:
			walk(n.Body, depth+1)
		case *ast.Mutex:
			walk(n.Body, depth+1)
		}
	}
	for _, s := range stmts {
		walk(s, depth)
	}
	return found
}

// withDefers runs the deferred blocks registered while body ran.
func withDefers(body evalFn) evalFn {
	return func(f *frame) (Value, error) {
		mark := len(f.defers)
		v, err := body(f)
		if len(f.defers) > mark {
			saved := f.ret
			for i := len(f.defers) - 1; i >= mark; i-- {
				_, derr := f.defers[i].body(f)
				if derr != nil && !isControl(derr) && (err == nil || isControl(err)) {
					err = derr
				}
			}
			f.defers = f.defers[:mark]
			f.ret = saved
		}
		return v, err
	}
}
