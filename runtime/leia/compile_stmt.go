package leia

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// rangeStmt compiles `for k, v := range x`. x is evaluated once, as every
// value it gives (so `range pairs(t)` sees Lua's iterator triple):
//   - a table: its entries in iteration order (array part, then the
//     others in insertion order); one variable gets the keys;
//   - an iterator function f (with optional state s and control c): the
//     generic for of Lua, calling f(s, c) until its first result is nil;
//   - a channel: received values until it is closed and drained;
//   - anything else is a runtime error.
func (c *compiler) rangeStmt(s *ast.ForStmt, body execFn) execFn {
	vars := c.res.loopVars[s]
	sets := make([]func(*frame, Value), len(vars))
	for i, v := range vars {
		sets[i] = c.declSetter(v)
	}
	nv := len(vars)
	src := c.multiOrNil(s.X)
	var single evalFn
	if src == nil {
		single = c.expr(s.X)
	}
	pos := int32(s.X.Pos().Start)
	loopPos := int32(s.Start)
	return func(fr *frame) ctrl {
		th := fr.th
		var x, st, ctl Value
		if src != nil {
			r := src(fr)
			if len(r) > 0 {
				x = r[0]
			}
			if len(r) > 1 {
				st = r[1]
			}
			if len(r) > 2 {
				ctl = r[2]
			}
		} else {
			x = single(fr)
		}
		bind := func(k, v Value) {
			if nv > 0 {
				sets[0](fr, k)
			}
			if nv > 1 {
				sets[1](fr, v)
			}
		}
		// pairs(t) / ipairs(t) / next, t: iterate the table directly.
		if x.k == KindNative && st.k == KindTable && th.in.metaOf(st).GetStr("__index").k == KindNil {
			switch x.Native() {
			case nextNative:
				if ctl.k == KindNil {
					x, st = st, Nil
				}
			case ipairsIter:
				t := st.Table()
				for i := int64(1); ; i++ {
					v := t.GetInt(i)
					if v.k == KindNil {
						return cNone
					}
					if th.meter.Step() {
						th.tickAt(fr, loopPos)
					}
					bind(Int(i), v)
					if stop, out := loopCtrl(body(fr)); stop {
						return out
					}
				}
			}
		}
		switch x.k {
		case KindTable:
			t := x.Table()
			if h := t.meta.GetStr("__pairs"); h.k != KindNil {
				r := th.callAt(h, []Value{x}, pos)
				var f, s2, c2 Value
				if len(r) > 0 {
					f = r[0]
				}
				if len(r) > 1 {
					s2 = r[1]
				}
				if len(r) > 2 {
					c2 = r[2]
				}
				return th.genericFor(fr, f, s2, c2, nv, sets, body, pos)
			}
			if t.ext != nil {
				t.made()
			}
			for p := 0; ; {
				var k, v Value
				k, v, p = t.entryAt(p)
				if p < 0 {
					return cNone
				}
				if th.meter.Step() {
					th.tickAt(fr, loopPos)
				}
				bind(k, v)
				if stop, out := loopCtrl(body(fr)); stop {
					return out
				}
			}
		case KindFunction, KindNative:
			return th.genericFor(fr, x, st, ctl, nv, sets, body, pos)
		case KindChannel:
			ch := x.Channel()
			for {
				v, ok := th.recvChan(ch, pos)
				if !ok {
					return cNone
				}
				if nv > 0 {
					sets[0](fr, v)
				}
				if stop, out := loopCtrl(body(fr)); stop {
					return out
				}
			}
		}
		if h := th.metaField(x, "__call"); h.k != KindNil {
			return th.genericFor(fr, x, st, ctl, nv, sets, body, pos)
		}
		panic(th.runtimeError(pos, "cannot range over a %s value", x.TypeName()))
	}
}

// genericFor is Lua's generic for: call f(s, c) until the first result is
// nil, binding the results to the loop variables.
func (th *Thread) genericFor(fr *frame, f, s, ctl Value, nv int, sets []func(*frame, Value), body execFn, pos int32) ctrl {
	for {
		if th.meter.Step() {
			th.tickAt(fr, pos)
		}
		m := th.mark()
		buf := th.reserve(2)
		buf[0], buf[1] = s, ctl
		r := th.callAt(f, buf, pos)
		var first Value
		if len(r) > 0 {
			first = r[0]
		}
		if first.k == KindNil {
			th.release(m)
			return cNone
		}
		ctl = first
		for i := 0; i < nv; i++ {
			v := Nil
			if i < len(r) {
				v = r[i]
			}
			sets[i](fr, v)
		}
		th.release(m)
		if stop, out := loopCtrl(body(fr)); stop {
			return out
		}
	}
}

// preparedCall evaluates a call's callee and arguments now (go, defer).
func (c *compiler) preparedCall(e ast.Expr) func(fr *frame) (Value, []Value) {
	switch e := e.(type) {
	case *ast.CallExpr:
		fn := c.expr(e.Fun)
		args, spread := c.args(e.Args)
		return func(fr *frame) (Value, []Value) {
			f := fn(fr)
			vals := make([]Value, 0, len(args))
			for _, a := range args {
				vals = append(vals, a(fr))
			}
			if spread != nil {
				vals = append(vals, spread(fr)...)
			}
			return f, vals
		}
	case *ast.MethodCallExpr:
		recv := c.expr(e.Recv)
		args, spread := c.args(e.Args)
		key := String(e.Method.Name)
		pos := int32(e.Method.Start)
		return func(fr *frame) (Value, []Value) {
			o := recv(fr)
			f := fr.th.index(o, key, pos)
			vals := make([]Value, 0, len(args)+1)
			vals = append(vals, o)
			for _, a := range args {
				vals = append(vals, a(fr))
			}
			if spread != nil {
				vals = append(vals, spread(fr)...)
			}
			return f, vals
		}
	}
	c.fail(e.Pos().Start, "expression in go or defer must be a function call")
	return nil
}

func (c *compiler) deferStmt(s *ast.DeferStmt) execFn {
	prep := c.preparedCall(s.Call)
	pos := int32(s.Start)
	return func(fr *frame) ctrl {
		f, args := prep(fr)
		fr.defers = append(fr.defers, deferred{fn: f, args: args, pos: pos})
		return cNone
	}
}

func (c *compiler) goStmt(s *ast.GoStmt) execFn {
	prep := c.preparedCall(s.Call)
	pos := int32(s.Start)
	return func(fr *frame) ctrl {
		f, args := prep(fr)
		fr.th.spawn(f, args, pos)
		return cNone
	}
}

// selectStmt compiles select: the channels and values of every case are
// evaluated first, then one ready case runs (default when none is ready).
func (c *compiler) selectStmt(s *ast.SelectStmt) execFn {
	type ccase struct {
		isDefault bool
		send      bool
		ch, val   evalFn
		sets      []func(*frame, Value)
		body      execFn
	}
	cases := make([]ccase, len(s.Cases))
	for i, cc := range s.Cases {
		k := ccase{isDefault: cc.Default}
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			k.send = true
			k.ch, k.val = c.expr(comm.Chan), c.expr(comm.Value)
		case *ast.ReceiveStmt:
			k.ch = c.expr(recvOperand(comm.Right))
			for _, e := range comm.Left {
				if comm.Declare {
					k.sets = append(k.sets, c.declFor(e.(*ast.Ident)))
				} else {
					k.sets = append(k.sets, c.assignTarget(e))
				}
			}
		case *ast.ExprStmt:
			u, ok := comm.X.(*ast.UnaryExpr)
			if !ok || u.Op != "<-" {
				c.fail(comm.Start, "select case must be a send or receive")
			}
			k.ch = c.expr(u.X)
		case nil:
		default:
			c.fail(cc.Start, "select case must be a send or receive")
		}
		k.body = c.stmtList(cc, cc.Body)
		cases[i] = k
	}
	pos := int32(s.Start)
	return func(fr *frame) ctrl {
		th := fr.th
		ops := make([]selectOp, 0, len(cases))
		hasDefault := false
		idx := make([]int, 0, len(cases))
		for i, k := range cases {
			if k.isDefault {
				hasDefault = true
				continue
			}
			op := selectOp{send: k.send}
			cv := k.ch(fr)
			op.ch = cv
			if k.send {
				op.val = k.val(fr)
			}
			ops = append(ops, op)
			idx = append(idx, i)
		}
		chosen, v, ok := th.selectOps(ops, hasDefault, pos)
		var k ccase
		if chosen < 0 {
			for _, kk := range cases {
				if kk.isDefault {
					k = kk
				}
			}
		} else {
			k = cases[idx[chosen]]
			if !k.send {
				if len(k.sets) > 0 {
					k.sets[0](fr, v)
				}
				if len(k.sets) > 1 {
					k.sets[1](fr, Bool(ok))
				}
			}
		}
		return k.body(fr)
	}
}

func (c *compiler) importDecl(s *ast.ImportDecl) execFn {
	type imp struct {
		path string
		set  func(*frame, Value)
		pos  int32
	}
	var imps []imp
	for _, sp := range s.Specs {
		p, _ := sp.Path.Value()
		if sp.Alias == nil {
			continue
		}
		imps = append(imps, imp{path: p, set: c.declFor(sp.Alias), pos: int32(sp.Start)})
	}
	return func(fr *frame) ctrl {
		for _, im := range imps {
			fr.callPos = im.pos
			im.set(fr, fr.th.require(im.path, im.pos))
		}
		return cNone
	}
}

// importDefaultAlias is the name `import "a/b"` binds: the last path
// element without a go: or collection prefix and without a file
// extension.
func importDefaultAlias(p string) string {
	p = strings.TrimPrefix(p, "go:")
	if i := strings.LastIndexAny(p, "/:"); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(strings.TrimSuffix(p, ".leia"), ".gs")
}

// recvOperand strips the <- of a receive expression: the channel.
func recvOperand(e ast.Expr) ast.Expr {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == "<-" {
		return u.X
	}
	return e
}

// commaOkRecv compiles `<-ch` where two values are wanted: the value and
// whether it came from a send (false once the channel is closed and
// drained).
func (c *compiler) commaOkRecv(e ast.Expr) multiFn {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != "<-" {
		return nil
	}
	ch := c.expr(u.X)
	pos := int32(u.Start)
	return func(fr *frame) []Value {
		v, ok := fr.th.recv(ch(fr), pos)
		return fr.th.Ret2(v, Bool(ok))
	}
}
