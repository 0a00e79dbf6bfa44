package harn

import (
	"sync/atomic"
	"unicode/utf8"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/builtins"
)

// argsFn evaluates call arguments, expanding spreads.
type argsFn func(f *frame) ([]Value, error)

func (c *compiler) args(list []ast.Expr) (argsFn, int, bool) {
	fns := make([]evalFn, len(list))
	spread := make([]bool, len(list))
	sites := make([]*site, len(list))
	any := false
	for i, a := range list {
		if sp, ok := a.(*ast.Spread); ok {
			fns[i] = c.expr(sp.Value)
			spread[i] = true
			sites[i] = c.here(sp.Span)
			any = true
		} else {
			fns[i] = c.expr(a)
		}
	}
	if !any {
		n := len(fns)
		return func(f *frame) ([]Value, error) {
			if n == 0 {
				return nil, nil
			}
			out := make([]Value, n)
			for i, fn := range fns {
				v, err := fn(f)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return out, nil
		}, n, false
	}
	return func(f *frame) ([]Value, error) {
		out := make([]Value, 0, len(fns))
		for i, fn := range fns {
			v, err := fn(f)
			if err != nil {
				return nil, err
			}
			if !spread[i] {
				out = append(out, v)
				continue
			}
			xs, err := spreadItems(v)
			if err != nil {
				return nil, sites[i].wrap(err)
			}
			out = append(out, xs...)
		}
		return out, nil
	}, len(fns), true
}

func (c *compiler) call(e *ast.Call) evalFn {
	s := c.here(e.Span)
	if m, ok := e.Func.(*ast.Member); ok {
		return c.methodCall(e, m, s)
	}
	if id, ok := e.Func.(*ast.Ident); ok && c.lookup(id.Name) == nil {
		name := id.Name
		if b, ok := c.in.builtin(name); ok {
			return c.builtinCall(b, name, c.mod, e.Args, s)
		}
		if v, ok := c.in.globalValue(name); ok {
			args, _, _ := c.args(e.Args)
			return func(f *frame) (Value, error) {
				as, err := args(f)
				if err != nil {
					return Nil, err
				}
				r, err := f.th.callValue(v, as)
				if err != nil {
					return Nil, s.wrap(err)
				}
				return r, nil
			}
		}
		msg := unavailableMessage(name)
		return func(f *frame) (Value, error) {
			return Nil, s.wrap(plainError(msg))
		}
	}
	callee := c.borrow(e.Func)
	spread := false
	for _, a := range e.Args {
		if _, ok := a.(*ast.Spread); ok {
			spread = true
		}
	}
	if !spread {
		n := len(e.Args)
		argFns := make([]evalFn, n)
		for i, a := range e.Args {
			argFns[i] = c.expr(a)
		}
		// Arguments go on the value stack: no allocation per call.
		return closureCall(&callSite{callee: callee, args: argFns, s: s})
	}
	args, _, _ := c.args(e.Args)
	return func(f *frame) (Value, error) {
		fv, err := callee(f)
		if err != nil {
			return Nil, err
		}
		as, err := args(f)
		if err != nil {
			return Nil, err
		}
		r, err := f.th.callValue(fv, as)
		if err != nil {
			return Nil, s.wrap(err)
		}
		return r, nil
	}
}

// tailCall compiles `return f(args)` in a position where the caller's
// frame may be replaced: the callee and arguments are evaluated, and a
// closure callee runs in place of the current call (no Go recursion).
func (c *compiler) tailCall(e *ast.Call) evalFn {
	if _, ok := e.Func.(*ast.Member); ok {
		return nil
	}
	if id, ok := e.Func.(*ast.Ident); ok && c.lookup(id.Name) == nil {
		return nil
	}
	callee := c.borrow(e.Func)
	args, _, _ := c.args(e.Args)
	s := c.here(e.Span)
	return func(f *frame) (Value, error) {
		fv, err := callee(f)
		if err != nil {
			return Nil, err
		}
		as, err := args(f)
		if err != nil {
			return Nil, err
		}
		if fv.k == KindClosure && fv.r.(*Closure).proto.kind == plainFn && len(f.defers) == 0 {
			f.tail, f.targs = fv.r.(*Closure), as
			return Nil, errTailCall
		}
		r, err := f.th.callValue(fv, as)
		if err != nil {
			return Nil, s.wrap(err)
		}
		f.ret = r
		return Nil, errReturn
	}
}

func (c *compiler) methodCall(e *ast.Call, m *ast.Member, s *site) evalFn {
	if id, ok := m.X.(*ast.Ident); ok && c.lookup(id.Name) == nil && builtins.IsNamespace(id.Name) {
		// A namespaced builtin: stream.map(...), event_log.emit(...).
		name := id.Name + "." + m.Name.Name
		b, ok := c.in.builtin(name)
		if !ok {
			msg := unavailableMessage(name)
			return func(*frame) (Value, error) { return Nil, s.wrap(plainError(msg)) }
		}
		return c.builtinCall(b, name, nil, e.Args, s)
	}
	recv := c.borrow(m.X)
	name := m.Name.Name
	opt := m.Optional
	if fns, ok := c.plainArgs(e.Args); ok {
		table := tableMethods(name)
		in := c.in
		var impl atomic.Pointer[siteImpl]
		return func(f *frame) (Value, error) {
			r, err := recv(f)
			if err != nil {
				return Nil, err
			}
			if opt && r.k == KindNil {
				return Nil, nil
			}
			// One slot before the arguments for the receiver, which a
			// method declared with self receives first.
			full, err := stackArgsAfter(f, 1, fns)
			if err != nil {
				return Nil, err
			}
			as := full[1:]
			th := f.th
			th.at = s
			var v Value
			switch {
			case int(r.k) < len(table) && table[r.k] != nil:
				v, err = th.callTableMethod(table[r.k], r, name, as)
			case r.k == KindStruct:
				// What callMethod does for a struct, with the impl
				// method found kept until the type or the impl
				// blocks change.
				st := r.r.(*StructValue).Type
				si := impl.Load()
				if snap := in.impls.Load(); si == nil || si.st != st || si.snap != snap {
					si = &siteImpl{st: st, snap: snap}
					if snap != nil {
						si.m = (*snap)[st.name][name]
					}
					impl.Store(si)
				}
				switch {
				case si.m == nil:
					v, err = th.callMethod(r, name, as, s)
				case si.m.proto.method:
					full[0] = share(r)
					v, err = th.callClosure(si.m, full)
				default:
					v, err = th.callClosure(si.m, as)
				}
			default:
				v, err = th.callMethod(r, name, as, s)
			}
			th.stack.freeArgs(full)
			if err != nil {
				return Nil, s.wrap(err)
			}
			return v, nil
		}
	}
	args, _, _ := c.args(e.Args)
	return func(f *frame) (Value, error) {
		r, err := recv(f)
		if err != nil {
			return Nil, err
		}
		if opt && r.k == KindNil {
			return Nil, nil
		}
		as, err := args(f)
		if err != nil {
			return Nil, err
		}
		f.th.at = s
		v, err := f.th.callMethod(r, name, as, s)
		if err != nil {
			return Nil, s.wrap(err)
		}
		return v, nil
	}
}

// plainArgs compiles call arguments that have no spread, one function
// each; ok is false when one is a spread.
func (c *compiler) plainArgs(list []ast.Expr) ([]evalFn, bool) {
	for _, a := range list {
		if _, ok := a.(*ast.Spread); ok {
			return nil, false
		}
	}
	fns := make([]evalFn, len(list))
	for i, a := range list {
		fns[i] = c.expr(a)
	}
	return fns, true
}

// stackArgs evaluates the arguments of a call onto the thread's value
// stack, where no allocation is made per call; the caller frees them
// with th.stack.free once the callee has returned. Builtins and methods
// receive such slices (as builtins called through a value always have):
// they must not keep the slice past their return.
func stackArgs(f *frame, fns []evalFn) ([]Value, error) {
	if len(fns) == 0 {
		return nil, nil
	}
	return stackArgsAfter(f, 0, fns)
}

// stackArgsAfter is stackArgs with skip nil slots before the arguments
// (freed with them).
func stackArgsAfter(f *frame, skip int, fns []evalFn) ([]Value, error) {
	th := f.th
	as := th.stack.alloc(skip + len(fns))
	for i, fn := range fns {
		v, err := fn(f)
		if err != nil {
			th.stack.freeArgs(as)
			return nil, err
		}
		as[skip+i] = v
	}
	return as, nil
}

// siteImpl is the impl method a method call site found for a struct
// type (nil: none) in one snapshot of the impl blocks.
type siteImpl struct {
	st   *structType
	snap *implTable
	m    *Closure
}

// builtinCall compiles a direct call of the builtin b under name (mod is
// the calling module, or nil). Without spread arguments they go on the
// value stack, and a leaf builtin gets the thread's reusable Call: such
// a call allocates nothing of its own.
func (c *compiler) builtinCall(b *Builtin, name string, mod *module, list []ast.Expr, s *site) evalFn {
	fn, leaf := b.Fn, b.leaf
	if fns, ok := c.plainArgs(list); ok {
		return func(f *frame) (Value, error) {
			as, err := stackArgs(f, fns)
			if err != nil {
				return Nil, err
			}
			th := f.th
			th.at = s
			if err := th.scanned(as); err != nil {
				th.stack.freeArgs(as)
				return Nil, err
			}
			var call *Call
			if leaf {
				call = th.reuseCall(name, mod)
			} else {
				call = &Call{th: th, Name: name, mod: mod}
			}
			v, err := fn(call, as)
			th.stack.freeArgs(as)
			if err == nil {
				err = th.grew(v)
			}
			if err != nil {
				return Nil, s.wrap(err)
			}
			return share(v), nil
		}
	}
	args, _, _ := c.args(list)
	return func(f *frame) (Value, error) {
		as, err := args(f)
		if err != nil {
			return Nil, err
		}
		f.th.at = s
		if err := f.th.scanned(as); err != nil {
			return Nil, err
		}
		v, err := fn(&Call{th: f.th, Name: name, mod: mod}, as)
		if err == nil {
			err = f.th.grew(v)
		}
		if err != nil {
			return Nil, s.wrap(err)
		}
		return share(v), nil
	}
}

// structField is where a struct type keeps the field a member
// expression names (i -1: it has none), kept by the expression for the
// last struct type it read.
type structField struct {
	st *structType
	i  int
}

func fieldOf(st *structType, name string) *structField {
	if i, ok := st.index[name]; ok {
		return &structField{st: st, i: i}
	}
	return &structField{st: st, i: -1}
}

func (c *compiler) member(e *ast.Member, shareIt bool) evalFn {
	x := c.borrow(e.X)
	name := e.Name.Name
	opt := e.Optional
	s := c.here(e.Span)
	var field atomic.Pointer[structField]
	return func(f *frame) (Value, error) {
		v, err := x(f)
		if err != nil {
			return Nil, err
		}
		if v.k == KindNil && opt {
			return Nil, nil
		}
		if v.k == KindStruct {
			sv := v.r.(*StructValue)
			sf := field.Load()
			if sf == nil || sf.st != sv.Type {
				sf = fieldOf(sv.Type, name)
				field.Store(sf)
			}
			r := Nil
			if sf.i >= 0 {
				r = sv.Fields[sf.i]
			}
			if shareIt {
				share(r)
			}
			return r, nil
		}
		r, err := getProperty(v, name, opt)
		if err != nil {
			return Nil, s.wrap(err)
		}
		if shareIt {
			share(r)
		}
		return r, nil
	}
}

func (c *compiler) index(e *ast.Index, shareIt bool) evalFn {
	x, i := c.borrow(e.X), c.borrow(e.Index)
	opt := e.Optional
	s := c.here(e.Span)
	return func(f *frame) (Value, error) {
		v, err := x(f)
		if err != nil {
			return Nil, err
		}
		if v.k == KindNil && opt {
			return Nil, nil
		}
		iv, err := i(f)
		if err != nil {
			return Nil, err
		}
		if v.k == KindList && iv.k == KindInt {
			items := v.r.(*List).items
			n := int64(iv.n)
			if n < 0 {
				n += int64(len(items))
			}
			if n < 0 || n >= int64(len(items)) {
				return Nil, nil
			}
			if shareIt {
				return share(items[n]), nil
			}
			return items[n], nil
		}
		r, err := indexValue(v, iv)
		if err != nil {
			return Nil, s.wrap(err)
		}
		if shareIt {
			share(r)
		}
		return r, nil
	}
}

// getProperty is `v.name`.
func getProperty(v Value, name string, optional bool) (Value, error) {
	switch v.k {
	case KindDict:
		r, _ := v.r.(*Dict).raw(name)
		return r, nil
	case KindList:
		items := v.r.(*List).items
		switch name {
		case "count", "length", "len":
			return Int(int64(len(items))), nil
		case "empty":
			return Bool(len(items) == 0), nil
		case "first":
			if len(items) == 0 {
				return Nil, nil
			}
			return items[0], nil
		case "last":
			if len(items) == 0 {
				return Nil, nil
			}
			return items[len(items)-1], nil
		}
		return Nil, nil
	case KindString:
		s := v.r.(string)
		switch name {
		case "count", "length", "len":
			return Int(int64(utf8.RuneCountInString(s))), nil
		case "empty":
			return Bool(s == ""), nil
		}
		return Nil, nil
	case KindSet:
		switch name {
		case "count", "length", "len":
			return Int(int64(v.r.(*Set).Len())), nil
		case "empty":
			return Bool(v.r.(*Set).Len() == 0), nil
		}
		return Nil, nil
	case KindRange:
		r := v.r.(*Range)
		switch name {
		case "count", "length", "len":
			return Int(r.Len()), nil
		case "empty":
			return Bool(r.Len() == 0), nil
		case "start":
			return Int(r.Start), nil
		case "end":
			return Int(r.End), nil
		case "first":
			if r.Len() == 0 {
				return Nil, nil
			}
			return Int(r.Start), nil
		case "last":
			if n := r.Len(); n > 0 {
				return Int(r.At(n - 1)), nil
			}
			return Nil, nil
		}
		return Nil, nil
	case KindEnum:
		e := v.r.(*EnumValue)
		switch name {
		case "variant":
			return Str(e.Variant), nil
		case "fields":
			return NewListValue(append([]Value(nil), e.Fields...)), nil
		case "enum", "enum_name":
			return Str(e.Enum), nil
		}
		for i, n := range e.Names {
			if n == name && i < len(e.Fields) {
				return e.Fields[i], nil
			}
		}
		return Nil, nil
	case KindStruct:
		s := v.r.(*StructValue)
		if i, ok := s.Type.index[name]; ok {
			return s.Fields[i], nil
		}
		return Nil, nil
	case KindPair:
		p := v.r.(*Pair)
		switch name {
		case "first", "key", "0":
			return p.First, nil
		case "second", "value", "1":
			return p.Second, nil
		}
		if optional {
			return Nil, nil
		}
		return Nil, typeError("cannot access property `%s` on pair (expected `first` or `second`)", name)
	case KindObject:
		o := v.r.(*Object)
		if m, ok := o.Members[name]; ok {
			return m, nil
		}
		if et, ok := o.Data.(*enumType); ok {
			return et.member(name)
		}
		if b, ok := o.Methods[name]; ok {
			return Value{k: KindBuiltin, r: b.bound(v)}, nil
		}
		return Nil, nil
	case KindNil:
		return Nil, typeError("cannot access property `%s` on nil", name)
	}
	if optional {
		return Nil, nil
	}
	return Nil, typeError("cannot access property `%s` on %s", name, v.TypeName())
}

// indexValue is `v[i]` for every container but the list fast path.
func indexValue(v, i Value) (Value, error) {
	switch v.k {
	case KindList:
		if i.k != KindInt {
			break
		}
		items := v.r.(*List).items
		n := int64(i.n)
		if n < 0 {
			n += int64(len(items))
		}
		if n < 0 || n >= int64(len(items)) {
			return Nil, nil
		}
		return items[n], nil
	case KindDict:
		key := ""
		if i.k == KindString {
			key = i.r.(string)
		} else {
			key = Display(i)
		}
		r, _ := v.r.(*Dict).raw(key)
		return r, nil
	case KindString:
		if i.k != KindInt {
			break
		}
		s := v.r.(string)
		n := int64(i.n)
		if n < 0 {
			n += int64(utf8.RuneCountInString(s))
			if n < 0 {
				return Nil, nil
			}
		}
		for _, r := range s {
			if n == 0 {
				return Str(string(r)), nil
			}
			n--
		}
		return Nil, nil
	case KindRange:
		if i.k != KindInt {
			break
		}
		r := v.r.(*Range)
		l := r.Len()
		n := int64(i.n)
		if n < 0 {
			n += l
		}
		if n < 0 || n >= l {
			return Nil, runtimeError("range index out of range: index %d for range of length %d", int64(i.n), l)
		}
		return Int(r.At(n)), nil
	case KindStruct:
		if i.k == KindString {
			return getProperty(v, i.r.(string), true)
		}
	case KindPair:
		if i.k == KindInt {
			switch i.n {
			case 0:
				return v.r.(*Pair).First, nil
			case 1:
				return v.r.(*Pair).Second, nil
			}
			return Nil, nil
		}
	case KindEnum:
		if i.k == KindString {
			return getProperty(v, i.r.(string), true)
		}
	case KindObject:
		if i.k == KindString {
			return getProperty(v, i.r.(string), true)
		}
	}
	return Nil, typeError("cannot index into %s with %s", v.TypeName(), i.TypeName())
}

func (c *compiler) slice(e *ast.Slice) evalFn {
	x := c.borrow(e.X)
	var lo, hi evalFn
	if e.Low != nil {
		lo = c.borrow(e.Low)
	}
	if e.High != nil {
		hi = c.borrow(e.High)
	}
	s := c.here(e.Span)
	opt := e.Optional
	return func(f *frame) (Value, error) {
		v, err := x(f)
		if err != nil {
			return Nil, err
		}
		if v.k == KindNil && opt {
			return Nil, nil
		}
		bound := func(fn evalFn) (*int64, error) {
			if fn == nil {
				return nil, nil
			}
			b, err := fn(f)
			if err != nil {
				return nil, err
			}
			if b.k == KindNil {
				return nil, nil
			}
			if b.k != KindInt {
				return nil, s.wrap(typeError("slice bounds must be integers, got %s", b.TypeName()))
			}
			n := int64(b.n)
			return &n, nil
		}
		l, err := bound(lo)
		if err != nil {
			return Nil, err
		}
		h, err := bound(hi)
		if err != nil {
			return Nil, err
		}
		r, err := Slice(v, l, h)
		if err != nil {
			return Nil, s.wrap(err)
		}
		return r, nil
	}
}

// clampRange resolves optional, possibly negative bounds against n.
func clampRange(lo, hi *int64, n int64) (int64, int64) {
	a, b := int64(0), n
	if lo != nil {
		a = *lo
		if a < 0 {
			a += n
		}
	}
	if hi != nil {
		b = *hi
		if b < 0 {
			b += n
		}
	}
	a = max(0, min(a, n))
	b = max(0, min(b, n))
	if b < a {
		b = a
	}
	return a, b
}

// Slice is v[lo:hi] of a list, string, bytes or range value (nil bounds: the
// ends; negative ones count from the end), as the slice syntax reads it.
func Slice(v Value, lo, hi *int64) (Value, error) {
	switch v.k {
	case KindList:
		items := v.r.(*List).items
		a, b := clampRange(lo, hi, int64(len(items)))
		out := make([]Value, b-a)
		copy(out, items[a:b])
		for _, x := range out {
			share(x)
		}
		return NewListValue(out), nil
	case KindString:
		rs := []rune(v.r.(string))
		a, b := clampRange(lo, hi, int64(len(rs)))
		return Str(string(rs[a:b])), nil
	case KindBytes:
		bs := v.r.([]byte)
		a, b := clampRange(lo, hi, int64(len(bs)))
		return BytesValue(append([]byte(nil), bs[a:b]...)), nil
	case KindRange:
		r := v.r.(*Range)
		a, b := clampRange(lo, hi, r.Len())
		out := make([]Value, b-a)
		for i := range out {
			out[i] = Int(r.At(a + int64(i)))
		}
		return NewListValue(out), nil
	}
	return Nil, typeError("cannot slice %s", v.TypeName())
}

// callSite is a call without spread arguments: the callee, the
// arguments and where the call is.
//
// A call of a closure runs the callee's body from the call's own
// closure: enter (out of line) evaluates the callee and the arguments,
// checks the depth and counts the step, pushes and binds the frame; the
// body runs; a body that falls off its end or returns, with no deferred
// blocks, pops there, and everything else (deferred blocks, tail calls,
// errors) is finish's. Every nested call then passes through one small
// Go frame between the caller's expression and the callee's body, where
// it passed through the call's closure and runClosure, with large
// frames (a deep recursion's cost is mostly the memory traffic of its Go
// stack, BENCHMARKS.md "Deep recursion").
type callSite struct {
	callee evalFn
	args   []evalFn
	s      *site
}

// closureCall compiles the call at cs. The Go frame of its closure is
// kept small by hand: the call site reaches enter through the thread,
// the frame's statements are read through the new frame at every step,
// and the uncommon endings leave through endBody with the outcome in the
// frame, so that every function it calls takes one word and only the new
// frame and an index stay in the Go frame across calls. A body that ends
// with `return E` has E evaluated here (funcProto.ret) without the
// return statement's Go frame. closureCall is not inlined into the
// compiler: its closure's Go frame is larger when it is.
//
//go:noinline
func closureCall(cs *callSite) evalFn {
	return func(f *frame) (Value, error) {
		f.th.site = cs
		nf, v, err := enterSite(f)
		if nf == nil {
			return v, err
		}
		for i := 0; i < len(nf.cl.proto.stmts); i++ {
			if _, err := nf.cl.proto.stmts[i](nf); err != nil {
				nf.out, nf.outErr = Nil, err
				return endBody(nf)
			}
		}
		v, err = nf.cl.proto.ret(nf)
		if err != nil || len(nf.defers) != 0 {
			nf.out, nf.outErr = v, err
			return endBody(nf)
		}
		nf.ret = v
		return nf.leave(), nil
	}
}

// enterSite is enter for the call site a compiled call handed over in
// the thread; the new frame remembers it.
//
//go:noinline
func enterSite(f *frame) (*frame, Value, error) {
	cs := f.th.site
	f.th.site = nil
	nf, v, err := cs.enter(f)
	if nf != nil {
		nf.site = cs
	}
	return nf, v, err
}

// endBody ends a call whose body ended with the outcome in nf.out and
// nf.outErr: a return, deferred blocks to run, a tail call or an error.
//
//go:noinline
func endBody(nf *frame) (Value, error) {
	v, err := nf.out, nf.outErr
	if len(nf.defers) != 0 || err != nil && !isReturn(err) {
		return nf.site.finish(nf)
	}
	nf.out, nf.outErr = Nil, nil
	if err == nil {
		nf.ret = v
	}
	return nf.leave(), nil
}

// enter starts the call at cs from frame f. It returns the callee's new
// frame, whose body the caller runs, with the arguments left on the
// value stack under it (the caller drops them after popping the frame);
// or nil and the call's outcome when there is no body to run here: a
// callee that is not a plain closure, tracing on, an error.
//
//go:noinline
func (cs *callSite) enter(f *frame) (*frame, Value, error) {
	fv, err := cs.callee(f)
	if err != nil {
		return nil, Nil, err
	}
	th := f.th
	as := th.stack.alloc(len(cs.args))
	for i, fn := range cs.args {
		v, err := fn(f)
		if err != nil {
			th.stack.free(as)
			return nil, Nil, err
		}
		as[i] = v
	}
	if fv.k != KindClosure || th.in.tracing.Load() {
		r, err := th.callValue(fv, as)
		th.stack.free(as)
		if err != nil {
			return nil, Nil, cs.s.wrap(err)
		}
		return nil, r, nil
	}
	// runClosure's prologue.
	cl := fv.r.(*Closure)
	p := cl.proto
	if th.depth >= th.in.maxDepth {
		err = stackOverflow(th.in.maxDepth)
	} else if th.meter.Step() {
		err = th.checkTick()
	}
	if err == nil && p.kind != plainFn {
		var r Value
		r, err = th.startGenerator(cl, as)
		if err == nil {
			th.stack.free(as)
			return nil, r, nil
		}
	}
	if err != nil {
		th.stack.free(as)
		return nil, Nil, cs.s.wrap(err)
	}
	nf := th.pushFrame(p.nslots, cl)
	if err := p.bind(nf, cl, as); err != nil {
		th.popFrame(nf)
		th.stack.free(as)
		return nil, Nil, cs.s.wrap(err)
	}
	return nf, Nil, nil
}

// finish ends a call that enter started and whose body ended with
// deferred blocks to run, a tail call or an error (the body's outcome is
// in nf.out and nf.outErr): as runClosure does, then the arguments are
// dropped and an error is located at the call.
//
//go:noinline
func (cs *callSite) finish(nf *frame) (Value, error) {
	th := nf.th
	v, err := nf.out, nf.outErr
	nf.out, nf.outErr = Nil, nil
	next, nargs, v, err := th.endCall(nf, v, err)
	if next != nil {
		v, err = th.runClosure(next, nargs)
	}
	th.stack.drop(len(cs.args))
	if err != nil {
		return Nil, cs.s.wrap(err)
	}
	return v, nil
}

// leave pops a frame a call site ran the body of and drops the
// arguments under it; the call's value is f.ret.
//
//go:noinline
func (f *frame) leave() Value {
	v := f.ret
	n := len(f.site.args)
	f.site = nil
	th := f.th
	th.popFrame(f)
	th.stack.drop(n)
	return v
}

// isReturn reports the return signal without comparing interfaces (a
// runtime call whose operands the caller would keep in its Go frame).
func isReturn(err error) bool {
	c, ok := err.(controlFlow)
	return ok && c == flowReturn
}
