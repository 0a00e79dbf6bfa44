package leia

import (
	"math"
	"strings"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

func (c *compiler) expr(e ast.Expr) evalFn {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxNesting {
		c.fail(e.Pos().Start, "expression nested too deeply")
	}
	switch e := e.(type) {
	case *ast.Ident:
		return c.readVar(e)
	case *ast.IntLit:
		v := Int(e.Value)
		if !e.Ok {
			f, _ := parseNumber(strings.ReplaceAll(e.Raw, "_", ""))
			if f.k == KindNil {
				c.fail(e.Start, "malformed number %s", e.Raw)
			}
			v = Float(f.AsFloat())
		}
		return constant(v)
	case *ast.FloatLit:
		if !e.Ok {
			c.fail(e.Start, "malformed number %s", e.Raw)
		}
		return constant(Float(e.Value))
	case *ast.DurationLit:
		secs, ok := parseDuration(e.Raw)
		if !ok {
			c.fail(e.Start, "malformed duration %s", e.Raw)
		}
		return constant(Float(secs))
	case *ast.BoolLit:
		return constant(Bool(e.Value))
	case *ast.NilLit:
		return constant(Nil)
	case *ast.VarargExpr:
		if !c.fn.variadic {
			c.fail(e.Start, "cannot use '...' outside a variadic function")
		}
		return func(fr *frame) Value {
			if len(fr.varargs) == 0 {
				return Nil
			}
			return fr.varargs[0]
		}
	case *ast.ChanExpr:
		return constant(chanTypeValue)
	case *ast.StringLit:
		return c.stringLit(e.Parts)
	case *ast.ParenExpr:
		return c.expr(e.X)
	case *ast.UnaryExpr:
		return c.unary(e)
	case *ast.BinaryExpr:
		return c.binary(e)
	case *ast.CallExpr:
		fn := c.expr(e.Fun)
		args, spread := c.args(e.Args)
		return callValue(&callArgs{args, spread, int32(e.Start), describe(e.Fun), fn})
	case *ast.MethodCallExpr:
		m := c.multi(e)
		return func(fr *frame) Value {
			r := m(fr)
			if len(r) == 0 {
				return Nil
			}
			return r[0]
		}
	case *ast.IndexExpr:
		obj, key := c.expr(e.X), c.expr(e.Index)
		pos := int32(e.Start)
		return func(fr *frame) Value {
			o, k := obj(fr), key(fr)
			if o.k == KindTable {
				t := o.Table()
				if v := t.Get(k); v.k != KindNil || t.meta == nil {
					return v
				}
			}
			return fr.th.index(o, k, pos)
		}
	case *ast.FieldExpr:
		obj := c.expr(e.X)
		name := e.Field.Name
		key := String(name)
		pos := int32(e.Field.Start)
		desc := describe(e.X)
		return func(fr *frame) Value {
			o := obj(fr)
			if o.k == KindTable {
				t := o.Table()
				if v := t.indexedStr(name); v.k != KindNil || t.meta == nil && t.ext == nil {
					return v
				}
			}
			return fr.th.indexDesc(o, key, pos, desc)
		}
	case *ast.FuncLit:
		p := c.function(e, "", e.Body)
		return closureMaker(p)
	case *ast.TableExpr:
		return c.table(e, "")
	case *ast.ListExpr:
		return c.list(e.Elems)
	case *ast.DenseArray:
		tbl := c.table(e.Body, e.ElemType)
		return tbl
	case *ast.TaggedBlock:
		return c.taggedBlock(e)
	case *ast.TaggedString:
		return c.taggedString(e)
	case *ast.QuoteBlock:
		return c.quoteBlock(e)
	case *ast.AgentExpr:
		return c.agentExpr(e)
	case *ast.Error:
		c.fail(e.Start, "syntax error")
	}
	c.fail(e.Pos().Start, "unsupported expression %T", e)
	return nil
}

func constant(v Value) evalFn { return func(*frame) Value { return v } }

// chanTypeValue is what `chan` evaluates to: make(chan) recognises it.
var chanTypeValue = UserdataValue(&Userdata{Value: chanTypeMarker{}, TypeName: "chantype"})

type chanTypeMarker struct{}

// describe names an expression for error messages ("local 'x'",
// "field 'f'").
func describe(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return "'" + e.Name + "'"
	case *ast.FieldExpr:
		return "field '" + e.Field.Name + "'"
	case *ast.MethodCallExpr:
		return "method '" + e.Method.Name + "'"
	case *ast.IndexExpr:
		if s, ok := e.Index.(*ast.StringLit); ok {
			if v, ok := s.Value(); ok {
				return "field '" + v + "'"
			}
		}
	}
	return ""
}

func (c *compiler) readVar(id *ast.Ident) evalFn {
	r := c.res.refs[id]
	switch r.kind {
	case refLocal:
		slot := r.vi.slot
		if r.vi.captured {
			return func(fr *frame) Value {
				if s := fr.slots[slot]; s.k == kindCell {
					return s.cell().v
				}
				return Nil
			}
		}
		return func(fr *frame) Value { return fr.slots[slot] }
	case refUpval:
		i := r.index
		return func(fr *frame) Value { return fr.cl.upvals[i].v }
	}
	name := id.Name
	g := c.globals
	key := String(name)
	// An inline cache remembers where the name's entry sits in the
	// globals table's slot array, so a global read is usually an index and
	// a string compare rather than a map lookup.
	idx := -1
	return func(fr *frame) Value {
		if idx >= 0 && idx < len(g.slots) {
			if s := &g.slots[idx]; s.key.AsString() == name && s.val.k != KindNil {
				return s.val
			}
		}
		if g.sidx != nil {
			if i, ok := g.sidx[name]; ok {
				idx = int(i)
				if v := g.slots[i].val; v.k != KindNil {
					return v
				}
			}
		}
		if g.meta == nil {
			return Nil
		}
		return fr.th.index(TableValue(g), key, -1)
	}
}

// stringLit compiles a string with ${} interpolations.
func (c *compiler) stringLit(parts []ast.StringPart) evalFn {
	if len(parts) == 0 {
		return constant(String(""))
	}
	if len(parts) == 1 && parts[0].Expr == nil {
		return constant(String(parts[0].Text))
	}
	type piece struct {
		text string
		e    evalFn
		pos  int32
	}
	ps := make([]piece, len(parts))
	for i, p := range parts {
		if p.Expr != nil {
			ps[i] = piece{e: c.expr(p.Expr), pos: int32(p.Start)}
		} else {
			ps[i] = piece{text: p.Text}
		}
	}
	return func(fr *frame) Value {
		var b strings.Builder
		for _, p := range ps {
			if p.e == nil {
				b.WriteString(p.text)
				continue
			}
			b.WriteString(fr.th.tostring(p.e(fr), p.pos))
		}
		return String(b.String())
	}
}

// ---------------------------------------------------------------------------
// Calls

// multiOrNil compiles a call or ... in a multi-value position; nil for
// other expressions.
func (c *compiler) multiOrNil(e ast.Expr) multiFn {
	switch e := e.(type) {
	case *ast.CallExpr, *ast.MethodCallExpr:
		return c.multi(e)
	case *ast.VarargExpr:
		if !c.fn.variadic {
			c.fail(e.Start, "cannot use '...' outside a variadic function")
		}
		return func(fr *frame) []Value { return fr.varargs }
	case *ast.TaggedString:
		return c.taggedStringMulti(e)
	case *ast.TaggedBlock:
		return c.taggedBlockMulti(e)
	}
	return nil
}

// isSpread reports a call of the builtin spread(...), which expands its
// arguments in any position of a list.
func (c *compiler) isSpread(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := call.Fun.(*ast.Ident); ok {
		return id.Name == "spread" && c.res.refs[id].kind == refGlobal
	}
	// table.spread(list) expands a list's elements.
	if f, ok := call.Fun.(*ast.FieldExpr); ok && f.Field.Name == "spread" {
		id, ok := f.X.(*ast.Ident)
		return ok && id.Name == "table" && c.res.refs[id].kind == refGlobal
	}
	return false
}

// args compiles an argument list: fixed single values and an optional
// multi-valued last argument.
func (c *compiler) args(es []ast.Expr) ([]evalFn, multiFn) {
	if len(es) == 0 {
		return nil, nil
	}
	for _, e := range es[:len(es)-1] {
		if c.isSpread(e) {
			return nil, c.spreadList(es)
		}
	}
	last := c.multiOrNil(es[len(es)-1])
	n := len(es)
	if last != nil {
		n--
	}
	fixed := make([]evalFn, n)
	for i := 0; i < n; i++ {
		fixed[i] = c.expr(es[i])
	}
	return fixed, last
}

// spreadList compiles an argument list in which spread(...) expands in a
// non-final position: every value is collected into a new slice.
func (c *compiler) spreadList(es []ast.Expr) multiFn {
	type part struct {
		one  evalFn
		many multiFn
	}
	parts := make([]part, len(es))
	for i, e := range es {
		if c.isSpread(e) || i == len(es)-1 {
			if m := c.multiOrNil(e); m != nil {
				parts[i].many = m
				continue
			}
		}
		parts[i].one = c.expr(e)
	}
	return func(fr *frame) []Value {
		var out []Value
		for _, p := range parts {
			if p.many != nil {
				out = append(out, p.many(fr)...)
			} else {
				out = append(out, p.one(fr))
			}
		}
		return out
	}
}

// multi compiles a call; the result slice is valid until the thread's next
// call.
func (c *compiler) multi(e ast.Expr) multiFn {
	switch e := e.(type) {
	case *ast.CallExpr:
		fn := c.expr(e.Fun)
		args, spread := c.args(e.Args)
		return callSite(&callArgs{args, spread, int32(e.Start), describe(e.Fun), fn})
	case *ast.MethodCallExpr:
		recv := c.expr(e.Recv)
		args, spread := c.args(e.Args)
		return methodSite(recv, e.Method.Name, args, spread, int32(e.Method.Start))
	}
	return c.multiOrNil(e)
}

// callArgs is what a call site knows before it runs: its compiled
// arguments, where it is and how to name the callee in an error. It is
// passed by pointer so that a call passes few words (each nested call
// keeps them on the Go stack).
type callArgs struct {
	args   []evalFn
	spread multiFn
	pos    int32
	desc   string
	// fn is the callee's expression (a call site's, not a method's).
	fn evalFn
}

// callSite compiles a call whose results are all used (a statement, a
// return, the last argument or value of a list).
//
// A call of a Leia function runs its body from this closure: enterCall
// (out of line) evaluates the arguments and pushes the frame, the body
// runs, and the frame is popped here. Every nested Leia call then passes
// through this one small Go frame between the caller's expression and the
// callee's body, instead of a chain of call-site closure, invoke and
// runFrame (a deep recursion's cost is mostly the memory traffic of its
// Go stack, BENCHMARKS.md "Deep recursion"). A body that ends with
// `return E` has E evaluated here too (Proto.ret), without the return
// statement's Go frame.
//
// The Go frame of this closure is kept small by hand: every function it
// calls takes one word (the call site reaches enterCall through the
// thread), and the body's statements are read through the
// new frame at every step, so that only it and the index stay in the Go
// frame across calls. callSite and callValue are not inlined into the
// compiler: their closures' Go frames are larger when they are.
//
//go:noinline
func callSite(ca *callArgs) multiFn {
	return func(fr *frame) []Value {
		fr.th.site = ca
		nf := enterCall(fr)
		if nf.depth == 0 {
			return nf.th.made()
		}
		for i := 0; i < len(nf.cl.proto.stmts); i++ {
			if r := nf.cl.proto.stmts[i](nf); r != cNone {
				if r != cReturn {
					nf.th.nret = 0
				}
				return leave(nf).results()
			}
		}
		if nf.cl.proto.ret == nil {
			nf.th.nret = 0
			return leave(nf).results()
		}
		v := nf.cl.proto.ret(nf)
		th := leave(nf)
		th.rets[0] = v
		th.nret = 1
		return th.rets[:1]
	}
}

// callValue is callSite for a call whose first result only is used (an
// operand, an argument that is not the last).
//
//go:noinline
func callValue(ca *callArgs) evalFn {
	return func(fr *frame) Value {
		fr.th.site = ca
		nf := enterCall(fr)
		if nf.depth == 0 {
			return first(nf.th.made())
		}
		for i := 0; i < len(nf.cl.proto.stmts); i++ {
			if r := nf.cl.proto.stmts[i](nf); r != cNone {
				if r != cReturn {
					nf.th.nret = 0
				}
				return leave(nf).ret0()
			}
		}
		if nf.cl.proto.ret == nil {
			nf.th.nret = 0
			return leave(nf).ret0()
		}
		v := nf.cl.proto.ret(nf)
		leave(nf)
		return v
	}
}

// leave pops nf, a frame a call site ran the body of, and returns its
// thread.
func leave(nf *frame) *Thread {
	th := nf.th
	th.popFrame(nf)
	return th
}

// results are the results of the last call.
func (th *Thread) results() []Value { return th.rets[:th.nret] }

// made gives the results of a call enterCall made itself.
func (th *Thread) made() []Value {
	r := th.madeRets
	th.madeRets = nil
	return r
}

// ret0 is the first result of the last call, nil when it gave none.
func (th *Thread) ret0() Value {
	if th.nret == 0 {
		return Nil
	}
	return th.rets[0]
}

// first is a call's first result, nil when it gave none.
func first(r []Value) Value {
	if len(r) == 0 {
		return Nil
	}
	return r[0]
}

// enterCall makes the call a call site handed over in th.site: it
// evaluates the callee and the arguments into the new frame's slots,
// pushes the frame and counts the step, and returns the frame whose
// body's statements (Proto.stmts, then Proto.ret) the caller runs and
// whose frame it pops. A call it cannot hand back that way (not a Leia
// function, spread or extra arguments, a variadic callee, a body that is
// more than its statements, a debug hook, deferred calls) it makes
// itself, and it returns the thread's placeholder frame (depth 0) with
// the results in th.madeRets.
//
//go:noinline
func enterCall(fr *frame) *frame {
	th := fr.th
	ca := th.site
	th.site = nil
	f := ca.fn(fr)
	if f.k != KindFunction {
		th.madeRets = th.invokeGeneral(fr, f, Nil, false, ca)
		return th.frames[0]
	}
	cl := f.closure()
	p := cl.proto
	if ca.spread != nil || p.variadic || len(ca.args) > p.nparams || p.stmts == nil {
		th.madeRets = th.invokeGeneral(fr, f, Nil, false, ca)
		return th.frames[0]
	}
	m := th.mark()
	slots := th.reserve(p.nslots)
	for i, a := range ca.args {
		slots[i] = a(fr)
	}
	fr.callPos = ca.pos
	nf := th.pushFrame(cl, slots, m)
	nf.varargs = nil
	if th.meter.Step() {
		th.tick()
	}
	if len(p.capParams) > 0 || p.namedVar >= 0 {
		prologue(nf, p)
	}
	if th.in.hook.k != KindNil || p.hasDefer {
		th.runFrameSlow(nf, p)
		th.madeRets = th.rets[:th.nret]
		return th.frames[0]
	}
	return nf
}

func methodSite(recv evalFn, name string, args []evalFn, spread multiFn, pos int32) multiFn {
	key := String(name)
	desc := "method '" + name + "'"
	ca := &callArgs{args, spread, pos, desc, nil}
	return func(fr *frame) []Value {
		o := recv(fr)
		var f Value
		if o.k == KindTable {
			t := o.Table()
			if f = t.indexedStr(name); f.k == KindNil && (t.meta != nil || t.ext != nil) {
				f = fr.th.index(o, key, pos)
			}
		} else {
			f = fr.th.indexDesc(o, key, pos, desc)
		}
		return fr.th.invoke(fr, f, o, true, ca)
	}
}

// invoke calls fv with an optional self argument and compiled arguments.
// A Leia callee gets its frame slots filled directly, without an argument
// slice.
//
// The common call, a Leia function given at most as many arguments as it
// has parameters and no spread, is handled here; the others are out of
// line, in invokeGeneral, so that the Go frame every nested Leia call
// pushes stays small (a deep recursion's cost is mostly the memory
// traffic of its Go stack).
func (th *Thread) invoke(fr *frame, fv Value, self Value, hasSelf bool, ca *callArgs) []Value {
	if fv.k != KindFunction {
		return th.invokeGeneral(fr, fv, self, hasSelf, ca)
	}
	cl := fv.closure()
	p := cl.proto
	first := 0
	if hasSelf {
		first = 1
	}
	if ca.spread != nil || p.variadic || first+len(ca.args) > p.nparams {
		return th.invokeGeneral(fr, fv, self, hasSelf, ca)
	}
	m := th.mark()
	slots := th.reserve(p.nslots)
	if hasSelf {
		slots[0] = self
	}
	for i, a := range ca.args {
		slots[first+i] = a(fr)
	}
	fr.callPos = ca.pos
	nf := th.pushFrame(cl, slots, m)
	nf.varargs = nil
	th.runFrame(nf, p)
	return th.rets[:th.nret]
}

// invokeGeneral is invoke for every other call: spread arguments, extra
// arguments, variadic Leia functions, natives and callable values.
//
//go:noinline
func (th *Thread) invokeGeneral(fr *frame, fv Value, self Value, hasSelf bool, ca *callArgs) []Value {
	args, spread, pos, desc := ca.args, ca.spread, ca.pos, ca.desc
	if fv.k == KindFunction {
		cl := fv.closure()
		p := cl.proto
		m := th.mark()
		slots := th.reserve(p.nslots)
		np := p.nparams
		var extra []Value
		i := 0
		if hasSelf {
			if np > 0 {
				slots[0] = self
			} else if p.variadic {
				extra = append(extra, self)
			}
			i = 1
		}
		for _, a := range args {
			v := a(fr)
			if i < np {
				slots[i] = v
			} else if p.variadic {
				extra = append(extra, v)
			}
			i++
		}
		if spread != nil {
			for _, v := range spread(fr) {
				if i < np {
					slots[i] = v
				} else if p.variadic {
					extra = append(extra, v)
				}
				i++
			}
		}
		fr.callPos = pos
		nf := th.pushFrame(cl, slots, m)
		nf.varargs = extra
		th.runFrame(nf, p)
		return th.rets[:th.nret]
	}
	m := th.mark()
	n := len(args)
	if hasSelf {
		n++
	}
	buf := th.reserve(n)
	i := 0
	if hasSelf {
		buf[0] = self
		i = 1
	}
	for _, a := range args {
		buf[i] = a(fr)
		i++
	}
	if spread != nil {
		buf = th.extend(buf, spread(fr))
	}
	fr.callPos = pos
	if fv.k == KindNative {
		nf := fv.Native()
		th.scanArgs(buf, pos)
		r, err := nf.Fn(th, buf)
		if err != nil {
			panic(th.wrapNativeError(err, nf, pos))
		}
		th.release(m)
		return r
	}
	if fv.k == KindNil || (fv.k != KindTable && fv.k != KindUserdata) {
		if desc != "" {
			panic(th.runtimeError(pos, "attempt to call a %s value (%s)", fv.TypeName(), desc))
		}
		panic(th.runtimeError(pos, "attempt to call a %s value", fv.TypeName()))
	}
	r := th.callAt(fv, buf, pos)
	th.release(m)
	return r
}

// ---------------------------------------------------------------------------
// Tables

func (c *compiler) table(t *ast.TableExpr, elemType string) evalFn {
	type field struct {
		key   Value
		keyE  evalFn
		value evalFn
		pos   int32
	}
	var named []field
	var positional []ast.Expr
	for _, f := range t.Fields {
		switch f.Kind {
		case ast.FieldNamed, ast.FieldString:
			named = append(named, field{key: String(f.Name), value: c.expr(f.Value)})
		case ast.FieldComputed:
			named = append(named, field{keyE: c.expr(f.Key), value: c.expr(f.Value), pos: int32(f.Start)})
		case ast.FieldPositional:
			positional = append(positional, f.Value)
		}
	}
	// Positional entries keep their order relative to each other; named
	// entries are set after them, as Lua does for mixed constructors
	// whose named keys are not integers.
	list := c.list(positional)
	nn := len(named)
	ext := elemExt(elemType)
	return func(fr *frame) Value {
		tv := list(fr)
		tb := tv.Table()
		if ext != nil {
			tb.ext = ext
		}
		if nn > 0 && tb.sidx == nil {
			tb.slots = make([]slot, 0, nn)
		}
		for _, f := range named {
			k := f.key
			if f.keyE != nil {
				k = f.keyE(fr)
			}
			v := f.value(fr)
			if !tb.Set(k, v) {
				if k.k == KindNil {
					panic(fr.th.runtimeError(f.pos, "table index is nil"))
				}
				panic(fr.th.runtimeError(f.pos, "table index is NaN"))
			}
		}
		return tv
	}
}

func (c *compiler) list(elems []ast.Expr) evalFn {
	fixed, spread := c.args(elems)
	n := len(fixed)
	return func(fr *frame) Value {
		t := &Table{}
		if n > 0 || spread != nil {
			t.arr = make([]Value, n, n+4)
			for i, f := range fixed {
				t.arr[i] = f(fr)
			}
			if spread != nil {
				t.arr = append(t.arr, spread(fr)...)
			}
			if hasNil(t.arr) {
				return TableValue(listWithHoles(t.arr))
			}
		}
		return TableValue(t)
	}
}

func hasNil(vs []Value) bool {
	for _, v := range vs {
		if v.k == KindNil {
			return true
		}
	}
	return false
}

// listWithHoles builds a table from positional values some of which are
// nil: the array part ends before the last nil's run (Lua's border rules
// allow it) and later values go to the hash part.
func listWithHoles(vs []Value) *Table {
	t := &Table{}
	for i, v := range vs {
		if v.k != KindNil {
			t.SetInt(int64(i+1), v)
		}
	}
	return t
}

// ---------------------------------------------------------------------------
// Operators

func (c *compiler) unary(e *ast.UnaryExpr) evalFn {
	x := c.expr(e.X)
	pos := int32(e.Start)
	switch e.Op {
	case "-":
		if lit, ok := e.X.(*ast.IntLit); ok && lit.Ok {
			return constant(Int(-lit.Value))
		}
		if lit, ok := e.X.(*ast.FloatLit); ok {
			return constant(Float(-lit.Value))
		}
		return func(fr *frame) Value {
			v := x(fr)
			switch v.k {
			case KindInt:
				if int64(v.n) == math.MinInt64 {
					return Float(-float64(int64(v.n)))
				}
				return Int(-int64(v.n))
			case KindFloat:
				return Float(-v.AsFloat())
			}
			return fr.th.unm(v, pos)
		}
	case "!":
		return func(fr *frame) Value { return Bool(!x(fr).Truthy()) }
	case "#":
		desc := describe(e.X)
		return func(fr *frame) Value {
			v := x(fr)
			switch v.k {
			case KindString:
				return Int(int64(v.n))
			case KindTable:
				if t := v.Table(); t.meta == nil {
					return Int(int64(len(t.arr)))
				}
			}
			return fr.th.length(v, pos, desc)
		}
	case "^":
		return func(fr *frame) Value { return fr.th.bnot(x(fr), pos) }
	case "<-":
		return func(fr *frame) Value {
			v, _ := fr.th.recv(x(fr), pos)
			return v
		}
	}
	c.fail(e.Start, "unknown operator %s", e.Op)
	return nil
}

var binOps = map[string]arithOp{"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "%": opMod, "**": opPow,
	"&": opBand, "|": opBor, "^": opBxor, "<<": opShl, ">>": opShr, "&^": opBandNot}

func (c *compiler) binary(e *ast.BinaryExpr) evalFn {
	pos := int32(e.Start)
	switch e.Op {
	case "&&":
		l, r := c.expr(e.Left), c.expr(e.Right)
		return func(fr *frame) Value {
			if v := l(fr); !v.Truthy() {
				return v
			}
			return r(fr)
		}
	case "||":
		l, r := c.expr(e.Left), c.expr(e.Right)
		return func(fr *frame) Value {
			if v := l(fr); v.Truthy() {
				return v
			}
			return r(fr)
		}
	case "==", "!=", "<", "<=", ">", ">=":
		cond := c.compare(e)
		return func(fr *frame) Value { return Bool(cond(fr)) }
	case "..":
		return c.concat(e)
	}
	op, ok := binOps[e.Op]
	if !ok {
		c.fail(e.Start, "unknown operator %s", e.Op)
	}
	l := c.expr(e.Left)
	if k, ok := intConst(e.Right); ok {
		switch op {
		case opAdd:
			return func(fr *frame) Value {
				a := l(fr)
				if a.k == KindInt {
					s := int64(a.n) + k
					if (s > int64(a.n)) == (k > 0) {
						return Int(s)
					}
				}
				return fr.th.arithOut(opAdd, a, Int(k), pos)
			}
		case opSub:
			return func(fr *frame) Value {
				a := l(fr)
				if a.k == KindInt {
					s := int64(a.n) - k
					if (s < int64(a.n)) == (k > 0) {
						return Int(s)
					}
				}
				return fr.th.arithOut(opSub, a, Int(k), pos)
			}
		case opMod:
			if k > 0 {
				return func(fr *frame) Value {
					a := l(fr)
					if a.k == KindInt {
						m := int64(a.n) % k
						if m < 0 {
							m += k
						}
						return Int(m)
					}
					return fr.th.arithOut(opMod, a, Int(k), pos)
				}
			}
		}
	}
	r := c.expr(e.Right)
	switch op {
	case opAdd:
		return func(fr *frame) Value {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				s := int64(a.n) + int64(b.n)
				if (s > int64(a.n)) == (int64(b.n) > 0) {
					return Int(s)
				}
			} else if a.k == KindFloat && b.k == KindFloat {
				return Float(math.Float64frombits(a.n) + math.Float64frombits(b.n))
			}
			return fr.th.arithOut(opAdd, a, b, pos)
		}
	case opSub:
		return func(fr *frame) Value {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				s := int64(a.n) - int64(b.n)
				if (s < int64(a.n)) == (int64(b.n) > 0) {
					return Int(s)
				}
			} else if a.k == KindFloat && b.k == KindFloat {
				return Float(math.Float64frombits(a.n) - math.Float64frombits(b.n))
			}
			return fr.th.arithOut(opSub, a, b, pos)
		}
	case opMul:
		return func(fr *frame) Value {
			a, b := l(fr), r(fr)
			if a.k == KindFloat && b.k == KindFloat {
				return Float(math.Float64frombits(a.n) * math.Float64frombits(b.n))
			}
			return fr.th.arithOut(opMul, a, b, pos)
		}
	}
	return func(fr *frame) Value { return fr.th.arith(op, l(fr), r(fr), pos) }
}

// intConst reports an integer literal (possibly negated).
func intConst(e ast.Expr) (int64, bool) {
	switch e := e.(type) {
	case *ast.IntLit:
		return e.Value, e.Ok
	case *ast.ParenExpr:
		return intConst(e.X)
	case *ast.UnaryExpr:
		if e.Op == "-" {
			if v, ok := intConst(e.X); ok && v != math.MinInt64 {
				return -v, true
			}
		}
	}
	return 0, false
}

// concat flattens a chain a .. b .. c and joins it in one allocation when
// every piece is a string or number.
func (c *compiler) concat(e *ast.BinaryExpr) evalFn {
	var parts []ast.Expr
	var walk func(x ast.Expr)
	walk = func(x ast.Expr) {
		if b, ok := x.(*ast.BinaryExpr); ok && b.Op == ".." && len(parts) < 200 {
			walk(b.Left)
			walk(b.Right)
			return
		}
		parts = append(parts, x)
	}
	walk(e)
	fs := make([]evalFn, len(parts))
	for i, p := range parts {
		fs[i] = c.expr(p)
	}
	pos := int32(e.Start)
	if len(fs) == 2 {
		l, r := fs[0], fs[1]
		return func(fr *frame) Value {
			a, b := l(fr), r(fr)
			if a.k == KindString && b.k == KindString && a.n+b.n < chargeFrom {
				return String(a.AsString() + b.AsString())
			}
			return fr.th.concat2(a, b, pos)
		}
	}
	n := len(fs)
	return func(fr *frame) Value {
		th := fr.th
		m := th.mark()
		vals := th.reserve(n)
		for i, f := range fs {
			vals[i] = f(fr)
		}
		v := th.concatN(vals, pos)
		th.release(m)
		return v
	}
}

// cond compiles an expression used for its truth value.
func (c *compiler) cond(e ast.Expr) func(*frame) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.cond(x.X)
	case *ast.UnaryExpr:
		if x.Op == "!" {
			inner := c.cond(x.X)
			return func(fr *frame) bool { return !inner(fr) }
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return c.compare(x)
		case "&&":
			l, r := c.cond(x.Left), c.cond(x.Right)
			return func(fr *frame) bool { return l(fr) && r(fr) }
		case "||":
			l, r := c.cond(x.Left), c.cond(x.Right)
			return func(fr *frame) bool { return l(fr) || r(fr) }
		}
	case *ast.BoolLit:
		v := x.Value
		return func(*frame) bool { return v }
	}
	f := c.expr(e)
	return func(fr *frame) bool { return f(fr).Truthy() }
}

// compare compiles a comparison to a boolean function.
func (c *compiler) compare(e *ast.BinaryExpr) func(*frame) bool {
	pos := int32(e.Start)
	l := c.expr(e.Left)
	if k, ok := intConst(e.Right); ok && e.Op != "==" && e.Op != "!=" {
		kv := Int(k)
		switch e.Op {
		case "<":
			return func(fr *frame) bool {
				a := l(fr)
				if a.k == KindInt {
					return int64(a.n) < k
				}
				return fr.th.less(a, kv, pos)
			}
		case "<=":
			return func(fr *frame) bool {
				a := l(fr)
				if a.k == KindInt {
					return int64(a.n) <= k
				}
				return fr.th.lessEq(a, kv, pos)
			}
		case ">":
			return func(fr *frame) bool {
				a := l(fr)
				if a.k == KindInt {
					return int64(a.n) > k
				}
				return fr.th.less(kv, a, pos)
			}
		case ">=":
			return func(fr *frame) bool {
				a := l(fr)
				if a.k == KindInt {
					return int64(a.n) >= k
				}
				return fr.th.lessEq(kv, a, pos)
			}
		}
	}
	r := c.expr(e.Right)
	switch e.Op {
	case "==":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == b.k && a.k <= KindInt {
				return a.n == b.n
			}
			return fr.th.equal(a, b)
		}
	case "!=":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == b.k && a.k <= KindInt {
				return a.n != b.n
			}
			return !fr.th.equal(a, b)
		}
	case "<":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				return int64(a.n) < int64(b.n)
			}
			return fr.th.less(a, b, pos)
		}
	case "<=":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				return int64(a.n) <= int64(b.n)
			}
			return fr.th.lessEq(a, b, pos)
		}
	case ">":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				return int64(a.n) > int64(b.n)
			}
			return fr.th.less(b, a, pos)
		}
	case ">=":
		return func(fr *frame) bool {
			a, b := l(fr), r(fr)
			if a.k == KindInt && b.k == KindInt {
				return int64(a.n) >= int64(b.n)
			}
			return fr.th.lessEq(b, a, pos)
		}
	}
	c.fail(e.Start, "unknown comparison %s", e.Op)
	return nil
}
