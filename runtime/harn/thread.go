package harn

import (
	"context"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/runtime/execution"
)

// evalFn is compiled code: an expression or statement closed over its
// resolved slots. It returns the value (a statement's is its expression's
// value, or nil) or an error: an *Error, a control-flow signal or a limit.
type evalFn func(f *frame) (Value, error)

// thread is the state of one goroutine running program code: its call
// depth, step meter, value stack and context. Tasks, generators and the
// main program each have one; they take turns through the run's Turn.
type thread struct {
	in    *Interp
	ctx   context.Context // innermost: deadline blocks narrow it; the run's context at the bottom
	meter execution.Meter
	depth int
	stack valueStack
	pool  []*frame
	task  *Task
	// gen is the generator this thread runs the body of, if any.
	gen *Generator
	// at is the call site of the builtin running now (set by compiled
	// builtin calls), for deadlock reports.
	at *site
	// deadlines counts the deadline blocks the thread is in: their waits
	// end by themselves.
	deadlines int
	// opA and opB are the operands a compiled + or - hands to
	// addSub.out.
	opA, opB Value
	// site is the call site a compiled call hands to enterSite (out of
	// line, so that the call's Go frame stays small).
	site *callSite
	// spare are frames allocated for depths not reached yet (growPool).
	spare []frame
	// leafCall is the Call every call of a leaf builtin reuses
	// (registerLeaf).
	leafCall Call
}

// reuseCall readies the thread's leafCall for a call of the leaf builtin
// name from mod. Its fields are stored one by one (a whole-struct store
// takes a bulk write barrier while the collector runs); Self and literal
// are zero already unless a builtin set them.
func (th *thread) reuseCall(name string, mod *module) *Call {
	c := &th.leafCall
	c.th, c.Name, c.mod = th, name, mod
	if c.Self.k != KindNil || c.Self.r != nil || c.literal != nil {
		c.Self, c.literal = Nil, nil
	}
	return c
}

func (in *Interp) newThread(ctx context.Context, task *Task) *thread {
	return &thread{in: in, ctx: ctx, meter: execution.NewMeter(in.run), task: task}
}

// frame is one activation of a function (or of a module's top level).
type frame struct {
	slots  []Value
	cl     *Closure
	th     *thread
	ret    Value
	tail   *Closure
	targs  []Value
	defers []*deferred
	// out and outErr are the body's outcome handed from a call site to
	// callSite.finish (so that the call site's Go frame, which a deep
	// recursion keeps once per nested call, passes it no values).
	out    Value
	outErr error
	// site is the call site whose closure runs this frame's body
	// (closureCall), for the uncommon endings.
	site *callSite
}

type deferred struct {
	body evalFn
}

// valueStack hands out frame slots in stack order from chunks that never
// move, so a frame's slots stay valid while deeper calls grow the stack.
type valueStack struct {
	cur   []Value
	sp    int
	saved []stackChunk
	// spares are the chunks left when the stack shrank, the most recently
	// left last, kept so that a recursion going back and forth across
	// chunk ends (every round of a deep recursion) reuses them instead of
	// allocating and clearing them again. They never exceed what the
	// deepest recursion so far held.
	spares [][]Value
}

type stackChunk struct {
	buf []Value
	sp  int
}

const (
	stackChunkSize = 1 << 14
	firstChunkSize = 256
)

func (s *valueStack) alloc(n int) []Value {
	if s.sp+n > len(s.cur) {
		s.grow(n)
	}
	out := s.cur[s.sp : s.sp+n : s.sp+n]
	s.sp += n
	return out
}

// grow starts a new chunk of at least n slots. It is kept out of alloc,
// which is inlined into every call: its locals would enlarge the Go frame
// each nested call pays for.
//
//go:noinline
func (s *valueStack) grow(n int) {
	if s.cur != nil {
		s.saved = append(s.saved, stackChunk{s.cur, s.sp})
	}
	// Chunks start small (a task or generator that makes a few calls
	// should not cost stackChunkSize slots) and double up to it.
	size := max(min(2*len(s.cur), stackChunkSize), firstChunkSize, n)
	if k := len(s.spares) - 1; k >= 0 && len(s.spares[k]) >= size {
		s.cur = s.spares[k]
		s.spares[k] = nil
		s.spares = s.spares[:k]
	} else {
		s.cur = make([]Value, size)
	}
	s.sp = 0
}

func (s *valueStack) free(slots []Value) {
	clear(slots)
	s.sp -= len(slots)
	if s.sp == 0 && len(s.saved) > 0 {
		s.shrink()
	}
}

// freeArgs is free for the few arguments of a builtin or method call,
// cleared one by one: while the collector runs, clear's bulk write
// barrier costs more than a few single stores.
func (s *valueStack) freeArgs(slots []Value) {
	for i := range slots {
		p := &slots[i]
		p.k, p.n, p.r = 0, 0, nil
	}
	s.sp -= len(slots)
	if s.sp == 0 && len(s.saved) > 0 {
		s.shrink()
	}
}

// drop frees the n slots on top of the stack (a call's arguments, under
// the frame that was just popped).
func (s *valueStack) drop(n int) {
	clear(s.cur[s.sp-n : s.sp])
	s.sp -= n
	if s.sp == 0 && len(s.saved) > 0 {
		s.shrink()
	}
}

// shrink goes back to the chunk before the current one, keeping the
// current one for reuse.
//
//go:noinline
func (s *valueStack) shrink() {
	last := s.saved[len(s.saved)-1]
	s.saved = s.saved[:len(s.saved)-1]
	s.spares = append(s.spares, s.cur)
	s.cur, s.sp = last.buf, last.sp
}

// pushFrame readies a frame with n zeroed slots.
func (th *thread) pushFrame(n int, cl *Closure) *frame {
	d := th.depth
	if d >= len(th.pool) {
		th.growPool()
	}
	f := th.pool[d]
	f.slots = th.stack.alloc(n)
	f.cl = cl
	f.ret = Nil
	f.tail = nil
	f.targs = nil
	f.defers = nil
	th.depth++
	return f
}

// growPool adds a frame to the pool (out of line, as valueStack.grow).
//
//go:noinline
func (th *thread) growPool() {
	if len(th.spare) == 0 {
		// Frames come in blocks that grow with the depth reached: a
		// 100,000-deep recursion makes a few dozen allocations, not one
		// per level.
		th.spare = make([]frame, min(max(len(th.pool), 16), 4096))
	}
	f := &th.spare[0]
	th.spare = th.spare[1:]
	f.th = th
	th.pool = append(th.pool, f)
}

func (th *thread) popFrame(f *frame) {
	th.stack.free(f.slots)
	f.slots = nil
	f.cl = nil
	f.ret = Nil
	th.depth--
}

// tick counts a step (a loop iteration or a call); every
// execution.Interval steps the meter checks the run (its stop, the step
// budget, the heap) and the thread its deadline blocks.
func (th *thread) tick() error {
	if !th.meter.Step() {
		return nil
	}
	return th.checkTick()
}

// checkTick is the check tick makes every execution.Interval steps.
//
//go:noinline
func (th *thread) checkTick() error {
	if err := th.meter.Check(); err != nil {
		return err
	}
	return th.checkDeadline()
}

// charge counts n steps of a builtin's work (elements visited).
func (th *thread) charge(n int64) error {
	if err := th.meter.Steps(n); err != nil {
		return err
	}
	return nil
}

// alloc charges n bytes about to be allocated against the memory budget.
func (th *thread) alloc(n int64) error { return th.meter.Alloc(n) }

// checkLimits returns the run's stop, or "Deadline exceeded" when an
// enclosing deadline block has expired, without counting a step.
func (th *thread) checkLimits() error {
	if err := th.in.run.Err(); err != nil {
		return err
	}
	return th.checkDeadline()
}

func (th *thread) checkDeadline() error {
	if th.ctx != th.in.run.Context() && th.ctx.Err() != nil {
		return th.doneErr()
	}
	return nil
}

// doneErr says why th.ctx is done: the run's stop, an expired deadline
// block (catchable "Deadline exceeded"), or the task's cancellation by
// its parent.
func (th *thread) doneErr() error {
	if err := th.in.run.Err(); err != nil {
		return err
	}
	if th.deadlines > 0 {
		return plainError("Deadline exceeded")
	}
	return errTaskCancelled
}

// errAbandoned unwinds a task or generator goroutine that lost its turn
// for good (the run stopped or ended while it waited): it must not run
// program code any more. Its goroutine's recover ends it quietly.
type errAbandoned struct{}

// acquire takes the turn back after a wait. The main thread always gets
// it (the run's end is its to report); other threads give up when the run
// has stopped, so a stopped run with thousands of tasks queued ends at
// once instead of letting each one run up to its next check.
func (th *thread) acquire() {
	var stop <-chan struct{}
	if th.task == nil || th.task.parent != nil || th.gen != nil {
		stop = th.in.run.Done()
	}
	if !th.in.run.Turn().Acquire(stop) {
		panic(errAbandoned{})
	}
}

// block runs f with the turn released, for operations that wait on
// something outside the run's tasks (sleep, timers, processes, network,
// files): other tasks run meanwhile, and no deadlock is declared while f
// is in flight.
func (th *thread) block(f func()) {
	th.in.run.Tracker().Hold()
	th.in.run.Turn().Release()
	defer th.acquire()
	defer th.in.run.Tracker().Unhold()
	f()
}

// wait runs f with the turn released, for a wait that only another task
// of the run can end (a channel, a task's result, a lock, a parallel
// branch): when every task waits so, the run is deadlocked and the
// report says, for this one, the task and what (an operation) it waits
// for at the thread's current call site. Inside a deadline block the
// wait is timed and is a block.
func (th *thread) wait(what string, f func()) {
	if th.deadlines > 0 {
		th.block(f)
		return
	}
	at := th.at
	task := th.task
	w := &execution.Wait{Describe: func() string { return describeWait(task, what, at) }}
	th.in.run.Tracker().Wait(w)
	th.in.run.Turn().Release()
	defer th.acquire()
	defer th.in.run.Tracker().Woken(w)
	f()
}

// callValue calls any callable value with evaluated arguments.
func (th *thread) callValue(callee Value, args []Value) (Value, error) {
	switch callee.k {
	case KindClosure:
		return th.callClosure(callee.r.(*Closure), args)
	case KindBuiltin:
		b := callee.r.(*Builtin)
		if err := th.scanned(args); err != nil {
			return Nil, err
		}
		var c *Call
		if b.leaf {
			c = th.reuseCall(b.Name, nil)
		} else {
			c = &Call{th: th, Name: b.Name}
		}
		v, err := b.Fn(c, args)
		if err == nil {
			err = th.grew(v)
		}
		if err != nil {
			return Nil, err
		}
		return share(v), nil
	case KindObject:
		o := callee.r.(*Object)
		if st, ok := o.Data.(*structType); ok {
			return th.constructStruct(st, args)
		}
		if m, ok := o.Methods["__call"]; ok {
			return m.Fn(&Call{th: th, Name: m.Name, Self: callee}, args)
		}
	}
	return Nil, typeError("cannot call %s value", english.A(callee.TypeName()))
}

// callClosure runs a closure with arguments already evaluated.
func (th *thread) callClosure(cl *Closure, args []Value) (Value, error) {
	if th.in.tracing.Load() {
		id := th.in.spanStart("fn_call", cl.proto.name)
		v, err := th.runClosure(cl, args)
		th.in.spanEnd(id)
		return v, err
	}
	return th.runClosure(cl, args)
}

func (th *thread) runClosure(cl *Closure, args []Value) (Value, error) {
	for {
		p := cl.proto
		if th.depth >= th.in.maxDepth {
			return Nil, stackOverflow(th.in.maxDepth)
		}
		if th.meter.Step() {
			if err := th.checkTick(); err != nil {
				return Nil, err
			}
		}
		if p.kind != plainFn {
			return th.startGenerator(cl, args)
		}
		f := th.pushFrame(p.nslots, cl)
		if err := p.bind(f, cl, args); err != nil {
			th.popFrame(f)
			return Nil, err
		}
		v, err := p.body(f)
		if len(f.defers) == 0 {
			if err == nil {
				th.popFrame(f)
				return v, nil
			}
			if err == errReturn {
				v = f.ret
				th.popFrame(f)
				return v, nil
			}
		}
		// Deferred blocks, tail calls and errors: out of line, so that
		// the frame every nested call puts on the Go stack stays small.
		next, nargs, v, err := th.endCall(f, v, err)
		if next == nil {
			return v, err
		}
		cl, args = next, nargs
	}
}

// endCall finishes a call whose body ended other than by falling off its
// end or returning with no deferred blocks: it runs the deferred blocks,
// pops the frame, and returns either the closure and arguments of a tail
// call to run next, or the call's outcome.
//
//go:noinline
func (th *thread) endCall(f *frame, v Value, err error) (*Closure, []Value, Value, error) {
	if len(f.defers) > 0 {
		err = runDefers(f, err)
	}
	switch err {
	case nil:
	case errReturn:
		v, err = f.ret, nil
	case errTailCall:
		next, nargs := f.tail, f.targs
		th.popFrame(f)
		return next, nargs, Nil, nil
	}
	th.popFrame(f)
	if err != nil {
		if e, ok := err.(controlFlow); ok && (e == flowBreak || e == flowContinue) {
			err = runtimeError("%s", e.Error())
		}
		return nil, nil, Nil, err
	}
	return nil, nil, v, nil
}

// stackOverflow is the error of a call nested deeper than the run's
// depth limit: upstream's words, the limit, and the flag that raises it.
// It is kept out of runClosure so that the varargs of the formatting do
// not enlarge the Go frame every nested call pays for.
//
//go:noinline
func stackOverflow(limit int) error {
	return runtimeError("Stack overflow: too many nested calls (more than %s; raise it with %s)",
		execution.FormatValue(execution.Depth, int64(limit)), execution.LimitOf(execution.Depth).Flag)
}

// runDefers runs a frame's deferred blocks, last first; an error from a
// deferred block replaces a normal outcome but not an earlier error.
func runDefers(f *frame, err error) error {
	saved := f.ret
	for i := len(f.defers) - 1; i >= 0; i-- {
		d := f.defers[i]
		_, derr := d.body(f)
		if derr != nil && !isControl(derr) && (err == nil || isControl(err)) {
			err = derr
		}
	}
	f.defers = nil
	f.ret = saved
	return err
}

// Call is what a builtin receives: the running thread, and helpers to call
// back into the program, reach the host and block.
type Call struct {
	th   *thread
	mod  *module // the calling module, for source-relative paths (may be nil)
	Name string
	// Self is the receiver of a method call on a host object.
	Self Value
	// literal is the source call `recv.method(...)` that named this host
	// method directly; nil when the method was called as a value (a
	// method value, a computed property `recv[name](...)`).
	literal *site
}

// Literal reports whether the host method was called directly by name,
// `recv.method(...)`, rather than through a function value or a computed
// property.
func (c *Call) Literal() bool { return c.literal != nil }

// Interp is the interpreter running the call.
func (c *Call) Interp() *Interp { return c.th.in }

// Context is the call's context (cancelled at the run's end or a
// deadline).
func (c *Call) Context() context.Context { return c.th.ctx }

// Invoke calls a program value (closure or builtin) with arguments.
func (c *Call) Invoke(fn Value, args ...Value) (Value, error) {
	return c.th.callValue(fn, args)
}

// Collect drains an iterable value into a slice, as a for loop iterates
// it (running program code where the iterable is a generator).
func (c *Call) Collect(v Value) ([]Value, error) { return c.th.collect(v) }

// Grew charges n bytes the builtin allocated (read, inflated, built) to
// the run's memory and step budgets; past a budget it returns the stop.
func (c *Call) Grew(n int64) error { return c.th.grewBytes(n) }

// Block runs f with the turn released so other tasks may run while f
// waits.
func (c *Call) Block(f func()) { c.th.block(f) }

// at records sp in the error's trace when err is a program error.
func at(err error, fn *funcProto, sp ast.Span) error {
	if e, ok := err.(*Error); ok {
		name, mod := "", (*module)(nil)
		if fn != nil {
			name, mod = fn.name, fn.mod
		}
		e.at(name, mod, sp)
	}
	return err
}
