package harn

import (
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/runtime/execution"
)

// site is where a compiled node sits, for error traces.
type site struct {
	fn   *funcProto
	span ast.Span
}

func (c *compiler) here(sp ast.Span) *site { return &site{fn: c.fn.proto, span: sp} }

// wrap records the site in a program error's trace; other errors (control
// flow, limits) pass unchanged. A Go error from a builtin becomes an
// *Error here.
func (s *site) wrap(err error) error {
	if passes(err) {
		if stop := execution.AsStop(err); stop != nil {
			return stop // a builtin may have wrapped it
		}
		return err
	}
	e := asError(err)
	e.at(s.fn.name, s.fn.mod, s.span)
	return e
}

func constant(v Value) evalFn {
	return func(*frame) (Value, error) { return v, nil }
}

var nilFn evalFn = func(*frame) (Value, error) { return Nil, nil }

// expr compiles an expression in value context.
func (c *compiler) expr(e ast.Expr) evalFn { return c.exprMode(e, true) }

// borrow compiles an expression whose value is only inspected (an index
// or member base, an operand): a container it reads is not marked shared.
func (c *compiler) borrow(e ast.Expr) evalFn { return c.exprMode(e, false) }

func (c *compiler) exprMode(e ast.Expr, shareIt bool) evalFn {
	if e == nil {
		return nilFn
	}
	if !c.enter(e.Pos()) {
		return nilFn
	}
	defer c.leave()
	switch e := e.(type) {
	case *ast.Ident:
		return c.ident(e, shareIt)
	case *ast.IntLit:
		if e.Overflow {
			c.fail(e.Span, "integer literal %s does not fit in 64 bits", e.Raw)
		}
		return constant(Int(e.Value))
	case *ast.FloatLit:
		return constant(Float(e.Value))
	case *ast.DurationLit:
		if e.Overflow {
			c.fail(e.Span, "duration literal %s does not fit in 64 bits", e.Raw)
		}
		return constant(DurationValue(e.Millis))
	case *ast.BoolLit:
		return constant(Bool(e.Value))
	case *ast.NilLit:
		return nilFn
	case *ast.StringLit:
		return c.stringLit(e)
	case *ast.ListLit:
		return c.listLit(e)
	case *ast.DictLit:
		return c.dictLit(e)
	case *ast.Spread:
		c.fail(e.Span, "spread `...` is only allowed in lists, dicts and calls")
		return nilFn
	case *ast.Closure:
		return c.closureLit("", e.Span, e.Params, nil, e.Body, false)
	case *ast.FuncLit:
		var body []ast.Stmt
		if e.Body != nil {
			body = e.Body.Stmts
		}
		return c.closureLit("", e.Span, e.Params, nil, body, false)
	case *ast.StructLit:
		return c.structLit(e)
	case *ast.Paren:
		return c.exprMode(e.X, shareIt)
	case *ast.Call:
		return c.call(e)
	case *ast.Approval:
		return c.approval(e)
	case *ast.Member:
		return c.member(e, shareIt)
	case *ast.Index:
		return c.index(e, shareIt)
	case *ast.Slice:
		return c.slice(e)
	case *ast.Propagate:
		return c.propagate(e)
	case *ast.Unary:
		return c.unary(e)
	case *ast.Rethrow:
		return c.expr(e.X)
	case *ast.Binary:
		return c.binary(e)
	case *ast.Conditional:
		cond, a, b := c.borrow(e.Cond), c.expr(e.Then), c.expr(e.Else)
		return func(f *frame) (Value, error) {
			v, err := cond(f)
			if err != nil {
				return Nil, err
			}
			if v.Truthy() {
				return a(f)
			}
			return b(f)
		}
	case *ast.Range:
		return c.rangeExpr(e)
	case *ast.Pipe:
		return c.pipe(e)
	case *ast.If:
		return c.ifExpr(e)
	case *ast.Match:
		return c.match(e)
	case *ast.Try:
		return c.tryExpr(e)
	case *ast.Retry:
		return c.retry(e)
	case *ast.Deadline:
		return c.deadline(e)
	case *ast.Parallel:
		return c.parallel(e)
	case *ast.Spawn:
		return c.spawn(e)
	case *ast.Block:
		return c.block(e)
	case *ast.Error:
		c.fail(e.Span, "syntax error")
		return nilFn
	}
	c.fail(e.Pos(), "unsupported expression %T", e)
	return nilFn
}

func (c *compiler) ident(id *ast.Ident, shareIt bool) evalFn {
	if l := c.lookup(id.Name); l != nil {
		return readLocal(l, shareIt)
	}
	if v, ok := c.in.globalValue(id.Name); ok {
		return constant(v)
	}
	if isBuiltinTypeName(id.Name) {
		// A type name used as a value (schema_of(int), schema_is(x, string))
		// stands for its schema.
		d := NewDict(1)
		d.Set("type", Str(id.Name))
		return func(*frame) (Value, error) { return DictValue(d.clone()), nil }
	}
	s, name := c.here(id.Span), id.Name
	return func(*frame) (Value, error) {
		return Nil, s.wrap(plainError("Undefined variable: " + name))
	}
}

func (c *compiler) stringLit(e *ast.StringLit) evalFn {
	if v, ok := e.Value(); ok {
		return constant(Str(v))
	}
	type part struct {
		text string
		fn   evalFn
	}
	parts := make([]part, len(e.Parts))
	for i, p := range e.Parts {
		if p.Expr != nil {
			parts[i].fn = c.borrow(p.Expr)
		} else {
			parts[i].text = p.Text
		}
	}
	return func(f *frame) (Value, error) {
		var b strings.Builder
		for _, p := range parts {
			if p.fn == nil {
				b.WriteString(p.text)
				continue
			}
			v, err := p.fn(f)
			if err != nil {
				return Nil, err
			}
			if v.k == KindString {
				b.WriteString(v.r.(string))
			} else {
				w := &walk{th: f.th, out: &b, charged: b.Len()}
				if writeDisplay(&b, v, 0, w); w.err != nil {
					return Nil, w.err
				}
			}
		}
		return Str(b.String()), nil
	}
}

func (c *compiler) listLit(e *ast.ListLit) evalFn {
	type elem struct {
		fn     evalFn
		spread bool
		s      *site
	}
	elems := make([]elem, len(e.Elements))
	hasSpread := false
	for i, x := range e.Elements {
		if sp, ok := x.(*ast.Spread); ok {
			elems[i] = elem{fn: c.expr(sp.Value), spread: true, s: c.here(sp.Span)}
			hasSpread = true
		} else {
			elems[i] = elem{fn: c.expr(x)}
		}
	}
	if !hasSpread {
		fns := make([]evalFn, len(elems))
		for i, el := range elems {
			fns[i] = el.fn
		}
		return func(f *frame) (Value, error) {
			items := make([]Value, len(fns))
			for i, fn := range fns {
				v, err := fn(f)
				if err != nil {
					return Nil, err
				}
				items[i] = v
			}
			return NewListValue(items), nil
		}
	}
	return func(f *frame) (Value, error) {
		items := make([]Value, 0, len(elems))
		for _, el := range elems {
			v, err := el.fn(f)
			if err != nil {
				return Nil, err
			}
			if !el.spread {
				items = append(items, v)
				continue
			}
			xs, err := spreadItems(v)
			if err != nil {
				return Nil, el.s.wrap(err)
			}
			items = append(items, xs...)
		}
		return NewListValue(items), nil
	}
}

// spreadItems lists what `...v` contributes to a list or call.
func spreadItems(v Value) ([]Value, error) {
	switch v.k {
	case KindList:
		return v.r.(*List).SharedItems(), nil
	case KindSet:
		return v.r.(*Set).items, nil
	case KindRange:
		r := v.r.(*Range)
		n := r.Len()
		if n > 1<<26 {
			return nil, runtimeError("range too large to spread")
		}
		out := make([]Value, n)
		for i := range out {
			out[i] = Int(r.At(int64(i)))
		}
		return out, nil
	case KindNil:
		return nil, nil
	}
	return nil, typeError("cannot spread %s into a list", v.TypeName())
}

func (c *compiler) dictLit(e *ast.DictLit) evalFn {
	type entry struct {
		key    string
		keyFn  evalFn
		val    evalFn
		spread bool
		s      *site
	}
	entries := make([]entry, len(e.Entries))
	for i, en := range e.Entries {
		switch {
		case en.Spread:
			entries[i] = entry{val: c.expr(en.Value), spread: true, s: c.here(en.Span)}
		case en.Name != nil:
			entries[i] = entry{key: en.Name.Name, val: c.expr(en.Value)}
		case en.StringKey != nil:
			if v, ok := en.StringKey.Value(); ok {
				entries[i] = entry{key: v, val: c.expr(en.Value)}
			} else {
				entries[i] = entry{keyFn: c.stringLit(en.StringKey), val: c.expr(en.Value)}
			}
		case en.Computed != nil:
			entries[i] = entry{keyFn: c.borrow(en.Computed), val: c.expr(en.Value)}
		}
	}
	return func(f *frame) (Value, error) {
		d := NewDict(len(entries))
		for _, en := range entries {
			v, err := en.val(f)
			if err != nil {
				return Nil, err
			}
			if en.spread {
				switch v.k {
				case KindDict:
					for k, x := range v.r.(*Dict).m {
						d.Set(k, share(x))
					}
				case KindStruct:
					s := v.r.(*StructValue)
					for i, name := range s.Type.fields {
						d.Set(name, share(s.Fields[i]))
					}
				case KindNil:
				default:
					return Nil, en.s.wrap(typeError("cannot spread %s into a dict", v.TypeName()))
				}
				continue
			}
			key := en.key
			if en.keyFn != nil {
				k, err := en.keyFn(f)
				if err != nil {
					return Nil, err
				}
				key = Display(k)
			}
			d.Set(key, v)
		}
		return DictValue(d), nil
	}
}

func (c *compiler) unary(e *ast.Unary) evalFn {
	x := c.borrow(e.X)
	s := c.here(e.Span)
	if e.Op == ast.Not {
		return func(f *frame) (Value, error) {
			v, err := x(f)
			if err != nil {
				return Nil, err
			}
			return Bool(!v.Truthy()), nil
		}
	}
	return func(f *frame) (Value, error) {
		v, err := x(f)
		if err != nil {
			return Nil, err
		}
		switch v.k {
		case KindInt:
			return Int(-int64(v.n)), nil
		case KindFloat:
			return Float(-v.AsFloat()), nil
		case KindDuration:
			return DurationValue(-int64(v.n)), nil
		}
		return Nil, s.wrap(runtimeError("Cannot negate value of type %s", v.TypeName()))
	}
}

func (c *compiler) binary(e *ast.Binary) evalFn {
	s := c.here(e.Span)
	switch e.Op {
	case ast.And, ast.Or:
		l, r := c.borrow(e.Left), c.borrow(e.Right)
		and := e.Op == ast.And
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			if a.Truthy() != and {
				return Bool(!and), nil
			}
			b, err := r(f)
			if err != nil {
				return Nil, err
			}
			return Bool(b.Truthy()), nil
		}
	case ast.Coalesce:
		l, r := c.expr(e.Left), c.expr(e.Right)
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			if a.k != KindNil {
				return a, nil
			}
			return r(f)
		}
	}
	var l, r evalFn
	if e.Op == ast.Add {
		// list + list and dict + dict copy their operands' elements.
		l, r = c.expr(e.Left), c.expr(e.Right)
	} else {
		l, r = c.borrow(e.Left), c.borrow(e.Right)
	}
	if k, ok := e.Right.(*ast.IntLit); ok && !k.Overflow && (e.Op == ast.Add || e.Op == ast.Sub) {
		// x + 1, n - 1: the constant needs no evaluation.
		n, b, add := uint64(k.Value), Int(k.Value), e.Op == ast.Add
		if !add {
			n = -n
		}
		op := &addSub{l: l, n: n, b: b, add: add, s: s}
		return func(f *frame) (Value, error) {
			a, err := op.l(f)
			if err != nil {
				return Nil, err
			}
			if a.k == KindInt {
				return Value{k: KindInt, n: a.n + op.n}, nil
			}
			f.th.opA, f.th.opB = a, op.b
			return op.out(f)
		}
	}
	switch e.Op {
	case ast.Add, ast.Sub:
		op := &addSub{l: l, r: r, add: e.Op == ast.Add, s: s}
		return func(f *frame) (Value, error) {
			a, err := op.l(f)
			if err != nil {
				return Nil, err
			}
			b, err := op.r(f)
			if err != nil {
				return Nil, err
			}
			if a.k == KindInt && b.k == KindInt {
				if op.add {
					return Value{k: KindInt, n: a.n + b.n}, nil
				}
				return Value{k: KindInt, n: a.n - b.n}, nil
			}
			f.th.opA, f.th.opB = a, b
			return op.out(f)
		}
	case ast.Mul, ast.Div, ast.Mod, ast.Pow:
		op := map[ast.BinaryOp]func(a, b Value) (Value, error){ast.Mul: Mul, ast.Div: opDiv, ast.Mod: opMod, ast.Pow: Pow}[e.Op]
		isMul := e.Op == ast.Mul
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			b, err := r(f)
			if err != nil {
				return Nil, err
			}
			if isMul && a.k == KindInt && b.k == KindInt {
				return Value{k: KindInt, n: a.n * b.n}, nil
			}
			v, err := op(a, b)
			if err != nil {
				return Nil, s.wrap(err)
			}
			return v, nil
		}
	case ast.Equal, ast.NotEqual:
		neg := e.Op == ast.NotEqual
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			b, err := r(f)
			if err != nil {
				return Nil, err
			}
			if a.k == KindInt && b.k == KindInt {
				return Bool((a.n == b.n) != neg), nil
			}
			eq, err := f.th.equal(a, b)
			if err != nil {
				return Nil, err
			}
			return Bool(eq != neg), nil
		}
	case ast.Less, ast.Greater, ast.LessEq, ast.GreaterEq:
		op := e.Op
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			b, err := r(f)
			if err != nil {
				return Nil, err
			}
			if a.k == KindInt && b.k == KindInt {
				x, y := int64(a.n), int64(b.n)
				switch op {
				case ast.Less:
					return Bool(x < y), nil
				case ast.Greater:
					return Bool(x > y), nil
				case ast.LessEq:
					return Bool(x <= y), nil
				}
				return Bool(x >= y), nil
			}
			v, err := opCompare(op, a, b)
			if err != nil {
				return Nil, s.wrap(err)
			}
			return v, nil
		}
	case ast.InOp, ast.NotInOp:
		neg := e.Op == ast.NotInOp
		return func(f *frame) (Value, error) {
			a, err := l(f)
			if err != nil {
				return Nil, err
			}
			b, err := r(f)
			if err != nil {
				return Nil, err
			}
			ok, err := contains(b, a)
			if err != nil {
				return Nil, s.wrap(err)
			}
			return Bool(ok != neg), nil
		}
	}
	c.fail(e.Span, "unsupported operator %s", e.Op)
	return nilFn
}

func (c *compiler) rangeExpr(e *ast.Range) evalFn {
	a, b := c.borrow(e.Start), c.borrow(e.End)
	s := c.here(e.Span)
	incl := !e.Exclusive
	return func(f *frame) (Value, error) {
		x, err := a(f)
		if err != nil {
			return Nil, err
		}
		y, err := b(f)
		if err != nil {
			return Nil, err
		}
		if x.k != KindInt || y.k != KindInt {
			return Nil, s.wrap(typeError("range bounds must be integers, got %s and %s", x.TypeName(), y.TypeName()))
		}
		return Value{k: KindRange, r: &Range{Start: int64(x.n), End: int64(y.n), Inclusive: incl, Step: 1}}, nil
	}
}

func (c *compiler) ifExpr(e *ast.If) evalFn {
	cond := c.borrow(e.Cond)
	then := c.block(e.Then)
	var els evalFn = nilFn
	switch x := e.Else.(type) {
	case *ast.Block:
		els = c.block(x)
	case *ast.If:
		els = c.ifExpr(x)
	}
	return func(f *frame) (Value, error) {
		v, err := cond(f)
		if err != nil {
			return Nil, err
		}
		if v.Truthy() {
			return then(f)
		}
		return els(f)
	}
}

// propagate is `x?`: an Err result returns from the function, an Ok result
// unwraps.
func (c *compiler) propagate(e *ast.Propagate) evalFn {
	x := c.expr(e.X)
	return func(f *frame) (Value, error) {
		v, err := x(f)
		if err != nil {
			return Nil, err
		}
		if v.k == KindEnum {
			ev := v.r.(*EnumValue)
			if ev.Enum == "Result" {
				if ev.Variant == "Err" {
					f.ret = v
					return Nil, errReturn
				}
				if len(ev.Fields) > 0 {
					return share(ev.Fields[0]), nil
				}
				return Nil, nil
			}
		}
		return v, nil
	}
}

// pipe is `a |> f`: f(a), or the right side evaluated with `_` bound to a
// when it mentions `_`.
func (c *compiler) pipe(e *ast.Pipe) evalFn {
	left := c.expr(e.Left)
	s := c.here(e.Span)
	if mentionsPlaceholder(e.Right, 0) {
		c.pushBlock()
		l := c.declare("_", false)
		right := c.expr(e.Right)
		c.popBlock()
		store := storeLocal(l)
		return func(f *frame) (Value, error) {
			v, err := left(f)
			if err != nil {
				return Nil, err
			}
			store(f, v)
			return right(f)
		}
	}
	right := c.expr(e.Right)
	return func(f *frame) (Value, error) {
		v, err := left(f)
		if err != nil {
			return Nil, err
		}
		fn, err := right(f)
		if err != nil {
			return Nil, err
		}
		switch fn.k {
		case KindClosure, KindBuiltin, KindObject:
			r, err := f.th.callValue(fn, []Value{v})
			if err != nil {
				return Nil, s.wrap(err)
			}
			return r, nil
		}
		return Nil, nil
	}
}

// mentionsPlaceholder reports whether `_` appears as a name in e, outside
// nested closures.
func mentionsPlaceholder(n ast.Node, depth int) bool {
	if depth > maxCompileDepth || n == nil {
		return false
	}
	switch n := n.(type) {
	case *ast.Ident:
		return n.Name == "_"
	case *ast.Call:
		if mentionsPlaceholder(n.Func, depth+1) {
			return true
		}
		for _, a := range n.Args {
			if mentionsPlaceholder(a, depth+1) {
				return true
			}
		}
	case *ast.Member:
		return mentionsPlaceholder(n.X, depth+1)
	case *ast.Index:
		return mentionsPlaceholder(n.X, depth+1) || mentionsPlaceholder(n.Index, depth+1)
	case *ast.Binary:
		return mentionsPlaceholder(n.Left, depth+1) || mentionsPlaceholder(n.Right, depth+1)
	case *ast.Unary:
		return mentionsPlaceholder(n.X, depth+1)
	case *ast.Paren:
		return mentionsPlaceholder(n.X, depth+1)
	case *ast.Spread:
		return mentionsPlaceholder(n.Value, depth+1)
	case *ast.ListLit:
		for _, x := range n.Elements {
			if mentionsPlaceholder(x, depth+1) {
				return true
			}
		}
	case *ast.DictLit:
		for _, en := range n.Entries {
			if mentionsPlaceholder(en.Value, depth+1) {
				return true
			}
		}
	case *ast.StringLit:
		for _, p := range n.Parts {
			if p.Expr != nil && mentionsPlaceholder(p.Expr, depth+1) {
				return true
			}
		}
	case *ast.Conditional:
		return mentionsPlaceholder(n.Cond, depth+1) || mentionsPlaceholder(n.Then, depth+1) || mentionsPlaceholder(n.Else, depth+1)
	}
	return false
}

// addSub is a compiled + or - (add false): its operands, or the left
// one and a constant right one (n, b). The closure captures only it, so
// that its Go frame, which a deep recursion keeps on the Go stack once
// per nested call, holds one word of it across the operands' calls.
type addSub struct {
	l, r evalFn
	n    uint64
	b    Value
	add  bool
	s    *site
}

// out is the uncommon case of a compiled + or -: the operands, handed
// over in th.opA and th.opB, are not both integers (out of line, so that
// the operator's closure reserves room for passing two words only).
//
//go:noinline
func (op *addSub) out(f *frame) (Value, error) {
	th := f.th
	a, b, add, s := th.opA, th.opB, op.add, op.s
	th.opA, th.opB = Nil, Nil
	var v Value
	var err error
	if add {
		// list + list and dict + dict allocate: the memory budget sees
		// what they grew.
		if v, err = Add(a, b); err == nil {
			err = th.grew(v)
		}
	} else {
		v, err = Sub(a, b)
	}
	if err != nil {
		return Nil, s.wrap(err)
	}
	return v, nil
}
