package leia

import (
	"sort"

	"github.com/harnlang/harn-check/runtime/execution"
)

// ctrl is how a statement ends: normally, or by break, continue, return or
// goto (the target is in Thread.gotoTarget).
type ctrl uint8

const (
	cNone ctrl = iota
	cBreak
	cContinue
	cReturn
	cGoto
)

type (
	evalFn  func(fr *frame) Value
	execFn  func(fr *frame) ctrl
	multiFn func(fr *frame) []Value // result valid until the thread's next call
)

// Chunk is one compiled source file (or string given to script.compile).
type Chunk struct {
	// Name is the file path or source name used in messages.
	Name  string
	src   []byte
	lines []int // offsets of line starts
	main  *Proto
}

// position converts a byte offset to a 1-based line and column (bytes).
func (c *Chunk) position(off int) (int, int) {
	if c == nil || off < 0 {
		return 0, 0
	}
	i := sort.Search(len(c.lines), func(i int) bool { return c.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - c.lines[i] + 1
}

func lineStarts(src []byte) []int {
	ls := []int{0}
	for i, b := range src {
		if b == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// Proto is a compiled function body.
type Proto struct {
	Name      string
	chunk     *Chunk
	pos       int32
	nparams   int
	params    []string // parameter names, for hosts (ParamNames)
	variadic  bool
	namedVar  int // slot of a `name...` parameter, or -1
	nslots    int
	capParams []int // parameter slots that closures capture
	upvals    []upvalDesc
	body      execFn
	// stmts are body's statements when running them in order is all
	// body does (stmtListParts); nil otherwise. A function with an empty
	// body has a non-nil empty list only if its block compiled to one.
	stmts []execFn
	// ret, when set, is the value of the `return E` that ends the body:
	// stmts then stops before that statement, and a call site that ran
	// them all without leaving evaluates ret (Proto.foldReturn).
	ret      evalFn
	hasDefer bool
}

// Closure is a Leia function value: a prototype and its captured cells.
type Closure struct {
	proto  *Proto
	upvals []*cell
}

// Name returns the function's declared name ("" for literals).
func (c *Closure) Name() string { return c.proto.Name }

type stackMark struct{ ci, sp int }

// frame is one active Leia call.
type frame struct {
	slots   []Value
	cl      *Closure
	varargs []Value
	th      *Thread
	callPos int32 // source offset of the call this frame is making
	defers  []deferred
	mark    stackMark
	depth   int
}

type deferred struct {
	fn   Value
	args []Value
	pos  int32
}

// Thread is one Leia execution stack: the main program, a coroutine or a
// goroutine. Natives receive the calling thread and use it to call back
// into Leia (Call), to raise errors and to return results without
// allocating (Ret1, Ret2).
type Thread struct {
	in     *Interp
	stk    []Value
	sp     int
	ci     int
	chunks [][]Value
	frames []*frame
	// spare are frames allocated for depths not reached yet (newFrame).
	spare []frame
	depth int
	rets  []Value
	nret  int
	r2    [2]Value

	// run is the run the thread belongs to, meter counts its steps.
	run   *execution.Run
	meter execution.Meter
	// goroutine numbers a thread started by `go` (0: the main program or
	// a coroutine); a goroutine unwinds quietly when its run is over.
	goroutine  int64
	co         *Coroutine
	gotoTarget *labelInfo
	// site is the call site a compiled call hands to enterCall (out of
	// line, so that the site's Go frame stays small).
	site *callArgs
	// madeRets are the results of a call enterCall made itself.
	madeRets []Value
	// opA and opB are the operands a compiled operator hands to
	// arithStashed.
	opA, opB Value
	op       arithOp
	opPos    int32
}

const firstChunkSize = 1024

func newThread(in *Interp) *Thread {
	th := &Thread{in: in, rets: make([]Value, 8), run: in.run, meter: execution.NewMeter(in.run)}
	th.chunks = [][]Value{make([]Value, firstChunkSize)}
	th.stk = th.chunks[0]
	th.frames = []*frame{{th: th}}
	return th
}

// Interp returns the interpreter the thread belongs to.
func (th *Thread) Interp() *Interp { return th.in }

func (th *Thread) mark() stackMark { return stackMark{th.ci, th.sp} }

func (th *Thread) release(m stackMark) {
	if m.ci != th.ci {
		th.ci = m.ci
		th.stk = th.chunks[m.ci]
	}
	th.sp = m.sp
}

// reserve returns n cleared stack slots.
func (th *Thread) reserve(n int) []Value {
	if th.sp+n > len(th.stk) {
		th.nextChunk(n)
	}
	s := th.stk[th.sp : th.sp+n : th.sp+n]
	clear(s)
	th.sp += n
	return s
}

func (th *Thread) nextChunk(n int) {
	th.ci++
	if th.ci < len(th.chunks) && len(th.chunks[th.ci]) >= n {
		th.stk = th.chunks[th.ci]
	} else {
		size := 2 * len(th.stk)
		if size < n {
			size = n
		}
		c := make([]Value, size)
		if th.ci < len(th.chunks) {
			th.chunks[th.ci] = c
		} else {
			th.chunks = append(th.chunks, c)
		}
		th.stk = c
	}
	th.sp = 0
}

// extend grows buf, the most recent reservation, by len(more) values.
func (th *Thread) extend(buf []Value, more []Value) []Value {
	n := len(buf) + len(more)
	if len(more) == 0 {
		return buf
	}
	if th.sp+len(more) <= len(th.stk) {
		start := th.sp - len(buf)
		copy(th.stk[th.sp:], more)
		th.sp += len(more)
		return th.stk[start:th.sp:th.sp]
	}
	// Move the whole region to a new chunk.
	old := make([]Value, len(buf))
	copy(old, buf)
	m := append([]Value(nil), more...)
	nb := th.reserve(n)
	copy(nb, old)
	copy(nb[len(old):], m)
	return nb
}

// stackOverflow is the error of a call nested deeper than the run's depth
// limit, naming the flag that raises it.
//
//go:noinline
func (th *Thread) stackOverflow() *Error {
	return th.runtimeError(-1, "stack overflow (more than %s nested calls; raise it with %s)",
		execution.FormatValue(execution.Depth, int64(th.in.maxDepth)), execution.LimitOf(execution.Depth).Flag)
}

func (th *Thread) pushFrame(cl *Closure, slots []Value, m stackMark) *frame {
	th.depth++
	if th.depth >= len(th.frames) {
		if th.depth >= th.in.maxDepth {
			th.depth--
			th.release(m)
			panic(th.stackOverflow())
		}
		th.frames = append(th.frames, th.newFrame())
	}
	fr := th.frames[th.depth]
	fr.slots = slots
	fr.cl = cl
	fr.varargs = nil
	fr.mark = m
	fr.callPos = -1
	fr.defers = fr.defers[:0]
	fr.depth = th.depth
	return fr
}

// newFrame gives a frame for a depth the thread has not reached before.
// Frames are allocated in blocks that grow with the depth reached: a
// 100,000-deep recursion makes a few dozen allocations instead of one
// per level.
//
//go:noinline
func (th *Thread) newFrame() *frame {
	if len(th.spare) == 0 {
		n := min(max(len(th.frames), 16), 4096)
		th.spare = make([]frame, n)
	}
	fr := &th.spare[0]
	th.spare = th.spare[1:]
	fr.th = th
	return fr
}

func (th *Thread) popFrame(fr *frame) {
	th.depth--
	th.release(fr.mark)
}

// current is the innermost active Leia frame (frame 0 is a placeholder).
func (th *Thread) current() *frame { return th.frames[th.depth] }

// runFrame runs fr's body and pops it; results are in th.rets[:th.nret].
func (th *Thread) runFrame(fr *frame, p *Proto) {
	if th.meter.Step() {
		th.tick()
	}
	if len(p.capParams) > 0 || p.namedVar >= 0 {
		prologue(fr, p)
	}
	if th.in.hook.k != KindNil || p.hasDefer {
		th.runFrameSlow(fr, p)
		return
	}
	if p.body(fr) != cReturn {
		th.nret = 0
	}
	th.popFrame(fr)
}

// runFrameSlow runs a frame under a debug hook or with deferred calls.
//
//go:noinline
func (th *Thread) runFrameSlow(fr *frame, p *Proto) {
	if th.in.hook.k != KindNil {
		th.runHooked(fr, p)
		return
	}
	th.runWithDefers(fr, p)
}

// prologue boxes a frame's captured parameters and collects its named
// varargs (out of runFrame, to keep the Go frame of each call small).
//
//go:noinline
func prologue(fr *frame, p *Proto) {
	for _, i := range p.capParams {
		fr.slots[i] = cellValue(&cell{fr.slots[i]})
	}
	if p.namedVar >= 0 {
		v := TableValue(NewList(fr.varargs...))
		if p.namedVarCaptured() {
			v = cellValue(&cell{v})
		}
		fr.slots[p.namedVar] = v
	}
}

// runHooked runs a frame with debug hook events around it.
func (th *Thread) runHooked(fr *frame, p *Proto) {
	th.fireHook("call", "leia", p.Name)
	if p.hasDefer {
		th.runWithDefers(fr, p)
	} else {
		if p.body(fr) != cReturn {
			th.nret = 0
		}
		th.popFrame(fr)
	}
	saved := append([]Value(nil), th.rets[:th.nret]...)
	th.fireHook("return", "leia", p.Name)
	th.setRets(saved)
}

// fireHook calls the debug hook with {type, kind, name}.
func (th *Thread) fireHook(typ, kind, name string) {
	in := th.in
	if in.hook.k == KindNil || in.inHook {
		return
	}
	in.inHook = true
	defer func() { in.inHook = false }()
	e := NewTable(0, 3)
	e.SetStr("type", String(typ))
	e.SetStr("kind", String(kind))
	e.SetStr("name", String(name))
	th.Call(in.hook, TableValue(e))
}

func (p *Proto) namedVarCaptured() bool {
	for _, i := range p.capParams {
		if i == p.namedVar {
			return true
		}
	}
	return false
}

// runWithDefers runs a body whose function uses defer: deferred calls run
// last-in first-out when the body returns or raises. Results are saved
// around them.
func (th *Thread) runWithDefers(fr *frame, p *Proto) {
	raised := true
	defer func() {
		if !raised {
			return
		}
		// Unwinding: run the deferred calls, then keep unwinding with
		// the newest error.
		r := recover()
		if _, kill := r.(coroutineKill); kill {
			panic(r)
		}
		th.depth = fr.depth
		if err := th.runDefers(fr); err != nil {
			r = err
		}
		panic(r)
	}()
	c := p.body(fr)
	if c != cReturn {
		th.nret = 0
	}
	var saved []Value
	if len(fr.defers) > 0 {
		saved = append(saved, th.rets[:th.nret]...)
	}
	if err := th.runDefers(fr); err != nil {
		raised = false
		th.popFrame(fr)
		panic(err)
	}
	raised = false
	th.setRets(saved)
	th.popFrame(fr)
}

// runDefers runs fr's deferred calls in reverse order. An error in one is
// reported after the rest have run (the last one raised wins).
func (th *Thread) runDefers(fr *frame) (err any) {
	for len(fr.defers) > 0 {
		d := fr.defers[len(fr.defers)-1]
		fr.defers = fr.defers[:len(fr.defers)-1]
		if e := th.protect(func() { th.callAt(d.fn, d.args, d.pos) }); e != nil {
			err = e
		}
	}
	return err
}

// protect runs f and returns the Leia error it raised, or nil. Coroutine
// kills pass through, and so do the run's stops (limits, cancellation,
// deadlock) and os.exit: a protected call cannot swallow them.
func (th *Thread) protect(f func()) (err *Error) {
	err = th.protectAll(f)
	if err != nil && err.uncatchable() {
		panic(err)
	}
	return err
}

// protectAll is protect that also returns cancellation and exit errors.
func (th *Thread) protectAll(f func()) (err *Error) {
	depth, m := th.depth, th.mark()
	defer func() {
		if r := recover(); r != nil {
			th.depth = depth
			th.release(m)
			err = th.toError(r)
			if th.in.hook.k != KindNil && !th.in.inHook {
				th.fireHook("error", string(err.Kind), err.Message)
			}
		}
	}()
	f()
	return nil
}

// setRets copies vals into the return buffer.
func (th *Thread) setRets(vals []Value) {
	if len(vals) > len(th.rets) {
		nr := make([]Value, len(vals)+8)
		copy(nr, vals)
		th.rets = nr
	} else {
		copy(th.rets, vals)
	}
	th.nret = len(vals)
}

// Ret1 returns one result without allocating; the slice is valid until
// the thread's next call.
func (th *Thread) Ret1(v Value) []Value {
	th.r2[0] = v
	return th.r2[:1]
}

// Ret2 returns two results without allocating.
func (th *Thread) Ret2(a, b Value) []Value {
	th.r2[0], th.r2[1] = a, b
	return th.r2[:2]
}

// Call calls fn with args and returns its results in a new slice. It is
// how natives call back into Leia; errors propagate as Leia errors (use
// PCall to catch them).
func (th *Thread) Call(fn Value, args ...Value) []Value {
	r := th.callAt(fn, args, -1)
	return append([]Value(nil), r...)
}

// Call1 calls fn and returns its first result.
func (th *Thread) Call1(fn Value, args ...Value) Value {
	r := th.callAt(fn, args, -1)
	if len(r) == 0 {
		return Nil
	}
	return r[0]
}

// PCall calls fn in protected mode: a raised error comes back as *Error.
func (th *Thread) PCall(fn Value, args ...Value) (rets []Value, err *Error) {
	err = th.protect(func() { rets = th.Call(fn, args...) })
	return rets, err
}

// callAt calls any callable value. The result slice is valid until the
// next call on th. pos is the call site in the current frame (-1 unknown).
func (th *Thread) callAt(fn Value, args []Value, pos int32) []Value {
	if pos >= 0 {
		th.current().callPos = pos
	}
	switch fn.k {
	case KindFunction:
		cl := fn.closure()
		p := cl.proto
		m := th.mark()
		// args may live on this stack; copy them in before reserving
		// over them is impossible (reserve is above sp), so plain copy.
		slots := th.reserve(p.nslots)
		n := len(args)
		if n > p.nparams {
			n = p.nparams
		}
		copy(slots, args[:n])
		fr := th.pushFrame(cl, slots, m)
		if p.variadic && len(args) > p.nparams {
			fr.varargs = append([]Value(nil), args[p.nparams:]...)
		}
		th.runFrame(fr, p)
		return th.rets[:th.nret]
	case KindNative:
		nf := fn.Native()
		th.scanArgs(args, pos)
		rets, err := nf.Fn(th, args)
		if err != nil {
			panic(th.wrapNativeError(err, nf, pos))
		}
		return rets
	}
	if h := th.in.metaOf(fn).GetStr("__call"); h.k != KindNil && h.k != KindTable && h.k != KindUserdata || (h.k != KindNil && th.in.metaOf(h).GetStr("__call").k != KindNil) {
		nargs := make([]Value, 0, len(args)+1)
		nargs = append(nargs, fn)
		nargs = append(nargs, args...)
		return th.callAt(h, nargs, pos)
	}
	panic(th.runtimeError(pos, "attempt to call a %s value", fn.TypeName()))
}

// tickAt is tick for a loop: errors raised by the tick (cancellation,
// budget) point at the loop.
func (th *Thread) tickAt(fr *frame, pos int32) {
	if fr.callPos < 0 || pos >= 0 {
		fr.callPos = pos
	}
	th.tick()
}

func (th *Thread) tick() { th.in.tick(th) }
