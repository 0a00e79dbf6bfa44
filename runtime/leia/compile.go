package leia

import (
	"fmt"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// The compiler turns the resolved syntax tree into a tree of Go closures:
// each expression becomes an evalFn, each statement an execFn, and a call
// of a Leia function runs its prototype's body closure on a frame whose
// slots were numbered by the resolver. Hot shapes (integer arithmetic with
// a constant, comparisons feeding a condition, field access with a
// constant name, calls with a fixed argument count) get their own
// closures so the common case does one type check and no allocation.

type compiler struct {
	in *Interp
	// globals is the table global names read and write: the interpreter's
	// globals, or the env of script.compile(src, {env: t}).
	globals *Table
	chunk   *Chunk
	res     *resolution
	fn      *funcInfo
	proto   *Proto
	depth   int
	// returns are the compiled values of `return E` statements whose one
	// value is a single expression, for the function that ends with one
	// (Proto.ret).
	returns map[*ast.ReturnStmt]evalFn
}

// compileError is raised (as a Go panic inside the compiler only) for a
// construct that cannot be compiled; compileMain turns it into an Error.
type compileError struct {
	pos int
	msg string
}

func (c *compiler) fail(pos int, format string, args ...any) {
	panic(compileError{pos, fmt.Sprintf(format, args...)})
}

func (c *compiler) compileMain(f *ast.File, fi *funcInfo) (p *Proto, err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(compileError)
			if !ok {
				panic(r)
			}
			line, col := c.chunk.position(ce.pos)
			err = &Error{Kind: KindParse, Message: ce.msg, File: c.chunk.Name, Line: line, Col: col, Value: String(fmt.Sprintf("%s:%d:%d: %s", c.chunk.Name, line, col, ce.msg))}
		}
	}()
	p = c.newProto(fi, "main chunk", 0)
	saved := c.enter(fi, p)
	body := c.stmtList(f, f.Stmts)
	c.leave(saved)
	p.body = body
	return p, nil
}

func (c *compiler) newProto(fi *funcInfo, name string, pos int) *Proto {
	p := &Proto{Name: name, chunk: c.chunk, pos: int32(pos), nparams: fi.nparams, variadic: fi.variadic, namedVar: -1, nslots: fi.maxSlots, upvals: fi.upvals, hasDefer: fi.hasDefer}
	for _, v := range fi.params {
		p.params = append(p.params, v.name)
		if v.captured {
			p.capParams = append(p.capParams, v.slot)
		}
	}
	if fi.namedVar != nil {
		p.namedVar = fi.namedVar.slot
		if fi.namedVar.captured {
			p.capParams = append(p.capParams, fi.namedVar.slot)
		}
	}
	return p
}

type savedFn struct {
	fn    *funcInfo
	proto *Proto
}

func (c *compiler) enter(fi *funcInfo, p *Proto) savedFn {
	s := savedFn{c.fn, c.proto}
	c.fn, c.proto = fi, p
	return s
}

func (c *compiler) leave(s savedFn) { c.fn, c.proto = s.fn, s.proto }

// function compiles a function body (FuncLit, FuncDecl, ...) to a
// prototype.
func (c *compiler) function(node ast.Node, name string, body *ast.Block) *Proto {
	fi := c.res.funcs[node]
	if fi == nil {
		c.fail(node.Pos().Start, "internal: unresolved function")
	}
	p := c.newProto(fi, name, node.Pos().Start)
	saved := c.enter(fi, p)
	if body == nil {
		p.body = func(*frame) ctrl { return cNone }
	} else {
		p.body, p.stmts = c.stmtListParts(body, body.Stmts)
		p.foldReturn(body.Stmts, c.returns)
	}
	c.leave(saved)
	return p
}

// foldReturn lets a call site evaluate the value of the statement that
// ends a function body, `return E` with E a single value, instead of
// running the statement: stmts then holds the statements before it, and
// ret the compiled E. A nested call then pushes no Go frame for the
// return (a deep recursion's cost is mostly its Go stack, BENCHMARKS.md
// "Deep recursion"). body, which runs the whole list, is unchanged.
func (p *Proto) foldReturn(src []ast.Stmt, returns map[*ast.ReturnStmt]evalFn) {
	if p.stmts == nil || len(src) == 0 || len(src) != len(p.stmts) {
		return
	}
	r, ok := src[len(src)-1].(*ast.ReturnStmt)
	if !ok || returns[r] == nil {
		return
	}
	p.ret = returns[r]
	p.stmts = p.stmts[:len(p.stmts)-1]
}

// closureMaker returns the code that creates a closure of p in the
// current frame.
func closureMaker(p *Proto) evalFn {
	if len(p.upvals) == 0 {
		return func(*frame) Value { return closureValue(&Closure{proto: p}) }
	}
	ups := p.upvals
	return func(fr *frame) Value {
		cl := &Closure{proto: p, upvals: make([]*cell, len(ups))}
		for i, d := range ups {
			if d.fromLocal {
				s := fr.slots[d.index]
				if s.k != kindCell {
					s = cellValue(&cell{s})
					fr.slots[d.index] = s
				}
				cl.upvals[i] = s.cell()
			} else {
				cl.upvals[i] = fr.cl.upvals[d.index]
			}
		}
		return closureValue(cl)
	}
}

// ---------------------------------------------------------------------------
// Blocks

func (c *compiler) stmtList(owner any, stmts []ast.Stmt) execFn {
	run, _ := c.stmtListParts(owner, stmts)
	return run
}

// stmtListParts compiles a block to one closure and, when running the
// block is nothing but running its statements in order until one does
// not end normally (no labels, no forward-declared locals), also gives
// those statements: a call site runs a function body's statements itself,
// saving the Go frame of the block's closure in every nested call.
func (c *compiler) stmtListParts(owner any, stmts []ast.Stmt) (execFn, []execFn) {
	bi := c.res.blocks[owner]
	list := make([]execFn, 0, len(stmts))
	for _, s := range stmts {
		if f := c.stmt(s); f != nil {
			list = append(list, f)
		} else {
			list = append(list, nopStmt)
		}
	}
	var fwd []int
	if bi != nil {
		for _, v := range bi.forward {
			fwd = append(fwd, v.slot)
		}
	}
	hasLabels := bi != nil && len(bi.labels) > 0
	loopPos := int32(-1)
	var run execFn
	switch {
	case hasLabels:
		run = func(fr *frame) ctrl {
			for i := 0; i < len(list); {
				r := list[i](fr)
				if r == cNone {
					i++
					continue
				}
				if r == cGoto && fr.th.gotoTarget.block == bi {
					i = fr.th.gotoTarget.index
					th := fr.th
					if th.meter.Step() {
						th.tickAt(fr, loopPos)
					}
					continue
				}
				return r
			}
			return cNone
		}
	case len(list) == 0:
		run = nopStmt
	case len(list) == 1:
		run = list[0]
	case len(list) == 2:
		a, b := list[0], list[1]
		run = func(fr *frame) ctrl {
			if r := a(fr); r != cNone {
				return r
			}
			return b(fr)
		}
	default:
		run = func(fr *frame) ctrl {
			for _, s := range list {
				if r := s(fr); r != cNone {
					return r
				}
			}
			return cNone
		}
	}
	if len(fwd) == 0 {
		if hasLabels {
			return run, nil
		}
		return run, list
	}
	return func(fr *frame) ctrl {
		for _, s := range fwd {
			fr.slots[s] = cellValue(&cell{})
		}
		return run(fr)
	}, nil
}

func nopStmt(*frame) ctrl { return cNone }

func (c *compiler) block(b *ast.Block) execFn {
	if b == nil {
		return nopStmt
	}
	return c.stmtList(b, b.Stmts)
}

// ---------------------------------------------------------------------------
// Statements

func (c *compiler) stmt(s ast.Stmt) execFn {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxNesting {
		c.fail(s.Pos().Start, "program nested too deeply")
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		return c.exprStmt(s)
	case *ast.DeclareStmt:
		ids := make([]*ast.Ident, len(s.Left))
		for i, e := range s.Left {
			ids[i] = e.(*ast.Ident)
		}
		return c.declare(ids, s.Right)
	case *ast.ConstDecl:
		return c.declare(s.Names, s.Values)
	case *ast.AssignStmt:
		return c.assign(s)
	case *ast.CompoundAssignStmt:
		op, ok := compoundOps[s.Op]
		if !ok {
			c.fail(s.Start, "unknown operator %s", s.Op)
		}
		return c.update(s.Left, op, c.expr(s.Right), int32(s.Start))
	case *ast.IncDecStmt:
		op := opAdd
		if !s.Inc {
			op = opSub
		}
		one := Int(1)
		return c.update(s.X, op, func(*frame) Value { return one }, int32(s.Start))
	case *ast.FuncDecl:
		name := ""
		if s.Name != nil {
			name = s.Name.Name
		}
		p := c.function(s, name, s.Body)
		mk := closureMaker(p)
		if c.res.globalDecls[s.Name] {
			set := c.declFor(s.Name)
			return func(fr *frame) ctrl { set(fr, mk(fr)); return cNone }
		}
		vi := c.res.decls[s.Name]
		if vi == nil {
			return func(fr *frame) ctrl { mk(fr); return cNone }
		}
		slot := vi.slot
		if vi.captured {
			fwd := vi.forward
			return func(fr *frame) ctrl {
				if !fwd || fr.slots[slot].k != kindCell {
					fr.slots[slot] = cellValue(&cell{})
				}
				cl := mk(fr)
				fr.slots[slot].cell().v = cl
				return cNone
			}
		}
		return func(fr *frame) ctrl {
			fr.slots[slot] = mk(fr)
			return cNone
		}
	case *ast.IfStmt:
		return c.ifStmt(s)
	case *ast.ForStmt:
		return c.forStmt(s)
	case *ast.SelectStmt:
		return c.selectStmt(s)
	case *ast.ReturnStmt:
		return c.returnStmt(s)
	case *ast.BreakStmt:
		return func(*frame) ctrl { return cBreak }
	case *ast.ContinueStmt:
		return func(*frame) ctrl { return cContinue }
	case *ast.GotoStmt:
		g := c.res.gotos[s]
		if g == nil || g.target == nil {
			c.fail(s.Start, "goto without a visible label")
		}
		t := g.target
		return func(fr *frame) ctrl {
			fr.th.gotoTarget = t
			return cGoto
		}
	case *ast.LabelStmt:
		return nopStmt
	case *ast.GoStmt:
		return c.goStmt(s)
	case *ast.DeferStmt:
		return c.deferStmt(s)
	case *ast.SendStmt:
		ch, v := c.expr(s.Chan), c.expr(s.Value)
		pos := int32(s.Start)
		return func(fr *frame) ctrl {
			cv := ch(fr)
			val := v(fr)
			fr.th.send(cv, val, pos)
			return cNone
		}
	case *ast.ReceiveStmt:
		// a receive outside select: v := <-ch / v, ok := <-ch
		ch := c.expr(recvOperand(s.Right))
		pos := int32(s.Start)
		n := len(s.Left)
		var set []func(fr *frame, v Value)
		for _, e := range s.Left {
			if s.Declare {
				set = append(set, c.declFor(e.(*ast.Ident)))
			} else {
				set = append(set, c.assignTarget(e))
			}
		}
		return func(fr *frame) ctrl {
			v, ok := fr.th.recv(ch(fr), pos)
			set[0](fr, v)
			if n > 1 {
				set[1](fr, Bool(ok))
			}
			return cNone
		}
	case *ast.ImportDecl:
		return c.importDecl(s)
	case *ast.EvaluateStmt:
		return nopStmt
	case *ast.ToolDecl, *ast.AgentDecl, *ast.AgentDefaults, *ast.BudgetStmt:
		return c.legacyAI(s)
	case *ast.Error:
		c.fail(s.Start, "syntax error")
	}
	c.fail(s.Pos().Start, "unsupported statement %T", s)
	return nil
}

var compoundOps = map[string]arithOp{"+=": opAdd, "-=": opSub, "*=": opMul, "/=": opDiv, "%=": opMod}

func (c *compiler) exprStmt(s *ast.ExprStmt) execFn {
	switch x := s.X.(type) {
	case *ast.CallExpr, *ast.MethodCallExpr:
		m := c.multi(x)
		return func(fr *frame) ctrl { m(fr); return cNone }
	case *ast.Error:
		c.fail(x.Start, "syntax error")
	}
	e := c.expr(s.X)
	return func(fr *frame) ctrl { e(fr); return cNone }
}

// declFor stores into the variable id declares: a global for a
// top-level declaration of a program, else a local.
func (c *compiler) declFor(id *ast.Ident) func(fr *frame, v Value) {
	if id != nil && c.res.globalDecls[id] {
		g := c.globals
		name := id.Name
		in := c.in
		return func(fr *frame, v Value) {
			in.declare(g, name)
			g.SetStr(name, v)
		}
	}
	return c.declSetter(c.res.decls[id])
}

// declSetter stores into a newly declared variable: a plain slot, or a new
// cell for a captured one (a forward variable's cell already exists).
func (c *compiler) declSetter(vi *varInfo) func(fr *frame, v Value) {
	if vi == nil {
		return func(*frame, Value) {}
	}
	slot := vi.slot
	if vi.captured {
		if vi.forward {
			return func(fr *frame, v Value) {
				if s := fr.slots[slot]; s.k == kindCell {
					s.cell().v = v
				} else {
					fr.slots[slot] = cellValue(&cell{v})
				}
			}
		}
		return func(fr *frame, v Value) { fr.slots[slot] = cellValue(&cell{v}) }
	}
	return func(fr *frame, v Value) { fr.slots[slot] = v }
}

func (c *compiler) declare(ids []*ast.Ident, values []ast.Expr) execFn {
	vars := make([]*varInfo, len(ids))
	for i, id := range ids {
		vars[i] = c.res.decls[id]
	}
	if len(vars) == 1 && len(values) == 1 {
		e := c.expr(values[0])
		vi := vars[0]
		if vi != nil && !vi.captured {
			slot := vi.slot
			return func(fr *frame) ctrl {
				fr.slots[slot] = e(fr)
				return cNone
			}
		}
		set := c.declFor(ids[0])
		return func(fr *frame) ctrl {
			set(fr, e(fr))
			return cNone
		}
	}
	sets := make([]func(*frame, Value), len(vars))
	for i := range vars {
		sets[i] = c.declFor(ids[i])
	}
	fill := c.exprList(values, len(vars))
	n := len(vars)
	return func(fr *frame) ctrl {
		th := fr.th
		m := th.mark()
		tmp := th.reserve(n)
		fill(fr, tmp)
		for i, set := range sets {
			set(fr, tmp[i])
		}
		th.release(m)
		return cNone
	}
}

// exprList compiles a value list adjusted to n values: every expression
// but the last gives one value, a last call or ... expands, missing
// values are nil (dst arrives cleared).
func (c *compiler) exprList(es []ast.Expr, n int) func(fr *frame, dst []Value) {
	if len(es) == 0 {
		return func(*frame, []Value) {}
	}
	single := make([]evalFn, len(es))
	var last multiFn
	for i, e := range es {
		if i == len(es)-1 {
			last = c.multiOrNil(e)
			if last == nil && len(es) == 1 && n == 2 {
				last = c.commaOkRecv(e)
			}
		}
		if i < len(es)-1 || last == nil {
			single[i] = c.expr(e)
		}
	}
	k := len(es)
	if last != nil {
		single = single[:k-1]
	}
	return func(fr *frame, dst []Value) {
		for i, f := range single {
			v := f(fr)
			if i < n {
				dst[i] = v
			}
		}
		if last != nil {
			vals := last(fr)
			if len(single) < n {
				copy(dst[len(single):], vals)
			}
		}
	}
}

// assignTarget compiles a store into an assignable expression.
func (c *compiler) assignTarget(e ast.Expr) func(fr *frame, v Value) {
	switch e := e.(type) {
	case *ast.Ident:
		return c.writeVar(e)
	case *ast.FieldExpr:
		obj := c.expr(e.X)
		key := String(e.Field.Name)
		pos := int32(e.Field.Start)
		return func(fr *frame, v Value) { fr.th.setIndex(obj(fr), key, v, pos) }
	case *ast.IndexExpr:
		obj, key := c.expr(e.X), c.expr(e.Index)
		pos := int32(e.Start)
		return func(fr *frame, v Value) {
			o := obj(fr)
			fr.th.setIndex(o, key(fr), v, pos)
		}
	}
	c.fail(e.Pos().Start, "cannot assign to this expression")
	return nil
}

func (c *compiler) writeVar(id *ast.Ident) func(fr *frame, v Value) {
	r := c.res.refs[id]
	switch r.kind {
	case refLocal:
		slot := r.vi.slot
		if r.vi.captured {
			return func(fr *frame, v Value) {
				if s := fr.slots[slot]; s.k == kindCell {
					s.cell().v = v
				} else {
					fr.slots[slot] = cellValue(&cell{v})
				}
			}
		}
		return func(fr *frame, v Value) { fr.slots[slot] = v }
	case refUpval:
		i := r.index
		return func(fr *frame, v Value) { fr.cl.upvals[i].v = v }
	}
	name := id.Name
	if name == "_" {
		// The blank name discards what is assigned to it (`_ = result`), as
		// `_, err := f()` does: it is never declared, so it is never an
		// assignment to an undeclared variable.
		return func(*frame, Value) {}
	}
	g := c.globals
	pos := int32(id.Start)
	idx := -1
	return func(fr *frame, v Value) {
		if idx >= 0 && idx < len(g.slots) {
			if s := &g.slots[idx]; s.key.AsString() == name && s.val.k != KindNil {
				if v.k == KindNil {
					c.in.declare(g, name)
					g.setSlot(int32(idx), v)
				} else {
					s.val = v
				}
				return
			}
		}
		if g.sidx != nil {
			if i, ok := g.sidx[name]; ok && g.slots[i].val.k != KindNil {
				idx = int(i)
				if v.k == KindNil {
					c.in.declare(g, name)
				}
				g.setSlot(i, v)
				return
			}
		}
		if g.meta != nil || c.in.declared[g][name] {
			fr.th.setIndex(TableValue(g), String(name), v, pos)
			return
		}
		panic(fr.th.runtimeError(pos, "assignment to undeclared variable '%s'", name))
	}
}

func (c *compiler) assign(s *ast.AssignStmt) execFn {
	if len(s.Left) == 1 && len(s.Right) == 1 {
		if id, ok := s.Left[0].(*ast.Ident); ok {
			if r := c.res.refs[id]; r.kind == refLocal && !r.vi.captured {
				slot := r.vi.slot
				e := c.expr(s.Right[0])
				return func(fr *frame) ctrl {
					fr.slots[slot] = e(fr)
					return cNone
				}
			}
		}
		set := c.assignTarget(s.Left[0])
		e := c.expr(s.Right[0])
		return func(fr *frame) ctrl {
			set(fr, e(fr))
			return cNone
		}
	}
	// Several targets: values first, then the targets' objects and keys,
	// then the stores, left to right.
	n := len(s.Left)
	fill := c.exprList(s.Right, n)
	type tgt struct {
		obj, key evalFn
		set      func(*frame, Value)
		pos      int32
	}
	tgts := make([]tgt, n)
	nidx := 0
	for i, e := range s.Left {
		switch e := e.(type) {
		case *ast.FieldExpr:
			key := String(e.Field.Name)
			tgts[i] = tgt{obj: c.expr(e.X), key: func(*frame) Value { return key }, pos: int32(e.Field.Start)}
			nidx++
		case *ast.IndexExpr:
			tgts[i] = tgt{obj: c.expr(e.X), key: c.expr(e.Index), pos: int32(e.Start)}
			nidx++
		default:
			tgts[i] = tgt{set: c.assignTarget(e)}
		}
	}
	return func(fr *frame) ctrl {
		th := fr.th
		m := th.mark()
		tmp := th.reserve(n + 2*nidx)
		vals, refs := tmp[:n], tmp[n:]
		fill(fr, vals)
		j := 0
		for _, t := range tgts {
			if t.obj != nil {
				refs[j] = t.obj(fr)
				refs[j+1] = t.key(fr)
				j += 2
			}
		}
		j = 0
		for i, t := range tgts {
			if t.obj != nil {
				th.setIndex(refs[j], refs[j+1], vals[i], t.pos)
				j += 2
			} else {
				t.set(fr, vals[i])
			}
		}
		th.release(m)
		return cNone
	}
}

// update compiles `x op= e`, `x++` and `x--`: the target's object and key
// are evaluated once.
func (c *compiler) update(target ast.Expr, op arithOp, rhs evalFn, pos int32) execFn {
	switch t := target.(type) {
	case *ast.Ident:
		r := c.res.refs[t]
		if r.kind == refLocal && !r.vi.captured {
			slot := r.vi.slot
			if op == opAdd {
				return func(fr *frame) ctrl {
					a, b := fr.slots[slot], rhs(fr)
					if a.k == KindInt && b.k == KindInt {
						s := int64(a.n) + int64(b.n)
						if (s > int64(a.n)) == (int64(b.n) > 0) {
							fr.slots[slot] = Int(s)
							return cNone
						}
					}
					fr.slots[slot] = fr.th.arith(opAdd, a, b, pos)
					return cNone
				}
			}
			return func(fr *frame) ctrl {
				fr.slots[slot] = fr.th.arith(op, fr.slots[slot], rhs(fr), pos)
				return cNone
			}
		}
		get := c.readVar(t)
		set := c.writeVar(t)
		return func(fr *frame) ctrl {
			set(fr, fr.th.arith(op, get(fr), rhs(fr), pos))
			return cNone
		}
	case *ast.FieldExpr, *ast.IndexExpr:
		var obj, key evalFn
		if f, ok := t.(*ast.FieldExpr); ok {
			obj = c.expr(f.X)
			k := String(f.Field.Name)
			key = func(*frame) Value { return k }
		} else {
			ix := t.(*ast.IndexExpr)
			obj, key = c.expr(ix.X), c.expr(ix.Index)
		}
		return func(fr *frame) ctrl {
			th := fr.th
			o, k := obj(fr), key(fr)
			cur := th.index(o, k, pos)
			th.setIndex(o, k, th.arith(op, cur, rhs(fr), pos), pos)
			return cNone
		}
	}
	c.fail(target.Pos().Start, "cannot assign to this expression")
	return nil
}

func (c *compiler) ifStmt(s *ast.IfStmt) execFn {
	type branch struct {
		cond func(*frame) bool
		body execFn
	}
	brs := []branch{{c.cond(s.Cond), c.block(s.Then)}}
	for _, ei := range s.ElseIfs {
		brs = append(brs, branch{c.cond(ei.Cond), c.block(ei.Body)})
	}
	var els execFn
	if s.Else != nil {
		els = c.block(s.Else)
	}
	if len(brs) == 1 {
		cond, body := brs[0].cond, brs[0].body
		if els == nil {
			return func(fr *frame) ctrl {
				if cond(fr) {
					return body(fr)
				}
				return cNone
			}
		}
		return func(fr *frame) ctrl {
			if cond(fr) {
				return body(fr)
			}
			return els(fr)
		}
	}
	return func(fr *frame) ctrl {
		for _, b := range brs {
			if b.cond(fr) {
				return b.body(fr)
			}
		}
		if els != nil {
			return els(fr)
		}
		return cNone
	}
}

func (c *compiler) returnStmt(s *ast.ReturnStmt) execFn {
	switch len(s.Values) {
	case 0:
		return func(fr *frame) ctrl {
			fr.th.nret = 0
			return cReturn
		}
	case 1:
		if m := c.multiOrNil(s.Values[0]); m != nil {
			return func(fr *frame) ctrl {
				fr.th.setRets(m(fr))
				return cReturn
			}
		}
		e := c.expr(s.Values[0])
		if c.returns == nil {
			c.returns = map[*ast.ReturnStmt]evalFn{}
		}
		c.returns[s] = e
		return func(fr *frame) ctrl {
			v := e(fr)
			th := fr.th
			th.rets[0] = v
			th.nret = 1
			return cReturn
		}
	case 2:
		if c.multiOrNil(s.Values[1]) == nil {
			a, b := c.expr(s.Values[0]), c.expr(s.Values[1])
			return func(fr *frame) ctrl {
				x := a(fr)
				y := b(fr)
				th := fr.th
				th.rets[0], th.rets[1] = x, y
				th.nret = 2
				return cReturn
			}
		}
	}
	// General case: evaluate onto the stack, then copy.
	fixed := make([]evalFn, len(s.Values)-1)
	for i, e := range s.Values[:len(s.Values)-1] {
		fixed[i] = c.expr(e)
	}
	lastE := s.Values[len(s.Values)-1]
	lastM := c.multiOrNil(lastE)
	var lastS evalFn
	if lastM == nil {
		lastS = c.expr(lastE)
	}
	return func(fr *frame) ctrl {
		th := fr.th
		m := th.mark()
		n := len(fixed)
		if lastM == nil {
			n++
		}
		buf := th.reserve(n)
		for i, f := range fixed {
			buf[i] = f(fr)
		}
		if lastM != nil {
			buf = th.extend(buf, lastM(fr))
		} else {
			buf[len(fixed)] = lastS(fr)
		}
		th.setRets(buf)
		th.release(m)
		return cReturn
	}
}

// loopBody runs a loop body once and says what the loop does next:
// keep going (false, cNone) or leave with the given ctrl.
func loopCtrl(r ctrl) (stop bool, out ctrl) {
	switch r {
	case cNone, cContinue:
		return false, cNone
	case cBreak:
		return true, cNone
	}
	return true, r
}

func (c *compiler) forStmt(s *ast.ForStmt) execFn {
	body := c.block(s.Body)
	loopPos := int32(s.Start)
	switch s.Kind {
	case ast.ForInfinite:
		return func(fr *frame) ctrl {
			th := fr.th
			for {
				if th.meter.Step() {
					th.tickAt(fr, loopPos)
				}
				if stop, out := loopCtrl(body(fr)); stop {
					return out
				}
			}
		}
	case ast.ForCond:
		cond := c.cond(s.Cond)
		return func(fr *frame) ctrl {
			th := fr.th
			for cond(fr) {
				if th.meter.Step() {
					th.tickAt(fr, loopPos)
				}
				if stop, out := loopCtrl(body(fr)); stop {
					return out
				}
			}
			return cNone
		}
	case ast.ForClause:
		var init, post execFn
		if s.Init != nil {
			init = c.stmt(s.Init)
		}
		if s.Post != nil {
			post = c.stmt(s.Post)
		}
		cond := func(*frame) bool { return true }
		if s.Cond != nil {
			cond = c.cond(s.Cond)
		}
		var fresh []int
		for _, v := range c.res.loopVars[s] {
			if v.captured {
				fresh = append(fresh, v.slot)
			}
		}
		return func(fr *frame) ctrl {
			th := fr.th
			if init != nil {
				init(fr)
			}
			for cond(fr) {
				if th.meter.Step() {
					th.tickAt(fr, loopPos)
				}
				if stop, out := loopCtrl(body(fr)); stop {
					return out
				}
				for _, sl := range fresh {
					fr.slots[sl] = cellValue(&cell{fr.slots[sl].cell().v})
				}
				if post != nil {
					post(fr)
				}
			}
			return cNone
		}
	case ast.ForRange:
		return c.rangeStmt(s, body)
	}
	c.fail(s.Start, "unknown loop form")
	return nil
}
