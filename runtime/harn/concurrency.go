package harn

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// Generator runs a generator (a fn with yield) or a stream (gen fn with
// emit) on its own goroutine, one value per pull: the consumer and the
// producer hand the turn to each other, so only one runs at a time.
type Generator struct {
	cl      *Closure
	args    []Value
	stream  bool
	started bool
	done    bool
	wake    chan struct{}
	out     chan genMsg
	// native, when set, produces the values instead of a closure body
	// (parallel ... as stream).
	native func(th *thread) (Value, bool, error)
}

type genMsg struct {
	v   Value
	ok  bool
	err error
}

func (g *Generator) isDone() bool { return g.done }

//go:noinline
func (th *thread) startGenerator(cl *Closure, args []Value) (Value, error) {
	g := &Generator{cl: cl, args: append([]Value(nil), args...), stream: cl.proto.kind == streamFn,
		wake: make(chan struct{}), out: make(chan genMsg)}
	k := KindGenerator
	if g.stream {
		k = KindStream
	}
	return Value{k: k, r: g}, nil
}

// resume pulls the next value: ok false when the body has finished.
func (g *Generator) resume(th *thread) (Value, bool, error) {
	if g.done {
		return Nil, false, nil
	}
	if g.native != nil {
		v, ok, err := g.native(th)
		if !ok || err != nil {
			g.done = true
		}
		return v, ok, err
	}
	in := th.in
	if !g.started {
		g.started = true
		in.live.Add(1)
		go func() {
			defer in.live.Done()
			g.run(in, th.task)
		}()
	}
	// The consumer hands its turn to the generator and waits for its
	// value: the generator runs in its stead, so this is neither a block
	// nor a wait the deadlock tracker counts (the generator's own waits
	// are).
	var msg genMsg
	in.run.Turn().Release()
	select {
	case g.wake <- struct{}{}:
		select {
		case msg = <-g.out:
		case <-in.run.Done():
			msg = genMsg{err: in.run.Err()}
		}
	case <-in.run.Done():
		msg = genMsg{err: in.run.Err()}
	}
	th.acquire()
	if !msg.ok {
		g.done = true
	}
	return msg.v, msg.ok, msg.err
}

func (g *Generator) run(in *Interp, task *Task) {
	select {
	case <-g.wake:
	case <-in.run.Done():
		return
	}
	th := in.newThread(in.run.Context(), task)
	th.gen = g
	var msg genMsg
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(errAbandoned); ok {
					msg = genMsg{err: in.run.Err()}
					return
				}
				msg = genMsg{err: runtimeError("internal error in generator: %v", r)}
				in.run.Turn().Release()
			}
		}()
		th.acquire()
		p := g.cl.proto
		f := th.pushFrame(p.nslots, g.cl)
		if err := p.bind(f, g.cl, g.args); err != nil {
			msg = genMsg{err: err}
		} else {
			_, err := p.body(f)
			if len(f.defers) > 0 {
				err = runDefers(f, err)
			}
			th.popFrame(f)
			if err == errReturn {
				err = nil
			}
			msg = genMsg{err: err}
		}
		in.run.Turn().Release()
	}()
	select {
	case g.out <- msg:
	case <-in.run.Done():
	}
}

// yield hands v to the consumer and waits to be resumed.
func (g *Generator) yield(th *thread, v Value) error {
	in := th.in
	in.run.Turn().Release()
	stopped := false
	select {
	case g.out <- genMsg{v: v, ok: true}:
		select {
		case <-g.wake:
		case <-in.run.Done():
			stopped = true
		}
	case <-in.run.Done():
		stopped = true
	}
	if stopped {
		panic(errAbandoned{})
	}
	th.acquire()
	return nil
}

func (c *compiler) yield(val ast.Expr, sp ast.Span, emit bool) evalFn {
	v := nilFn
	if val != nil {
		v = c.expr(val)
	}
	s := c.here(sp)
	return func(f *frame) (Value, error) {
		x, err := v(f)
		if err != nil {
			return Nil, err
		}
		g := f.th.gen
		if g == nil {
			return Nil, s.wrap(runtimeError("yield outside a generator"))
		}
		return Nil, g.yield(f.th, x)
	}
}

// nextRecord is `{value, done}` as .next() returns it.
func nextRecord(v Value, ok bool) Value {
	d := NewDict(2)
	d.Set("value", v)
	d.Set("done", Bool(!ok))
	return DictValue(d)
}

// Task is a spawned task: its handle value and its outcome.
type Task struct {
	id       string
	parent   *Task
	name     string
	done     chan struct{}
	result   Value
	err      error
	cancel   context.CancelFunc
	ctx      context.Context
	values   map[string]Value
	finished bool
	group    string
	// stopAsked is a cooperative stop (supervisor_stop): is_cancelled
	// reports it, and the task may drain before it is cancelled.
	stopAsked atomic.Bool
	// seq numbers this task's children by kind (spawn, parallel).
	seq map[string]int
}

func (in *Interp) rootTask() *Task {
	return &Task{id: "task_root", name: "root", done: make(chan struct{}), values: map[string]Value{}, seq: map[string]int{}}
}

// childID numbers a new child of t: "<parent>:<kind>:<n>".
func (t *Task) childID(kind string) string {
	t.seq[kind]++
	return t.id + ":" + kind + ":" + strconv.Itoa(t.seq[kind])
}

// spawnTask runs body on a new goroutine as a child task of th's, with
// the given id, name and group, counted against the run's task budget
// until its goroutine ends.
func (th *thread) spawnTask(id, name, group string, run func(th *thread) (Value, error)) (*Task, error) {
	in := th.in
	if err := in.run.StartTask(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(th.ctx)
	t := &Task{id: id, name: name, group: group, parent: th.task,
		done: make(chan struct{}), cancel: cancel, ctx: ctx, values: map[string]Value{}, seq: map[string]int{}}
	for k, v := range th.task.values {
		t.values[k] = v
	}
	in.live.Add(1)
	in.run.Tracker().Begin()
	go func() {
		defer in.live.Done()
		defer in.run.EndTask()
		defer in.run.Tracker().End()
		// done is closed however the task ends; finished (read under
		// the turn) only when it ended holding the turn.
		defer close(t.done)
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(errAbandoned); ok {
					return // the run stopped: the waiter reports it
				}
				t.err = runtimeError("internal error in task: %v", r)
				t.finished = true
				in.run.Turn().Release()
			}
		}()
		child := in.newThread(ctx, t)
		child.acquire()
		t.result, t.err = run(child)
		if t.err == errReturn {
			t.err = nil
		}
		t.finished = true
		in.run.Turn().Release()
	}()
	return t, nil
}

// await waits for a task's outcome.
func (th *thread) await(t *Task) (Value, error) {
	if !t.finished {
		th.wait("await "+t.id, func() {
			select {
			case <-t.done:
			case <-th.in.run.Done():
			}
		})
	}
	if !t.finished {
		if err := th.in.run.Err(); err != nil {
			return Nil, err
		}
		return Nil, runtimeError("task %s ended without a result", t.id)
	}
	return t.result, t.err
}

func (c *compiler) spawn(e *ast.Spawn) evalFn {
	p := c.compileFunction("spawn", e.Span, nil, blockStmts(e.Body), false, false)
	return func(f *frame) (Value, error) {
		cl := p.makeClosure(f)
		t, err := f.th.spawnTask(f.th.task.childID("spawn"), "spawn", "", func(th *thread) (Value, error) { return th.callClosure(cl, nil) })
		if err != nil {
			return Nil, err
		}
		return Value{k: KindTask, r: t}, nil
	}
}

func blockStmts(b *ast.Block) []ast.Stmt {
	if b == nil {
		return nil
	}
	return b.Stmts
}

// parallel compiles `parallel N`, `parallel each xs` and `parallel settle
// xs`: one task per item, results in item order.
func (c *compiler) parallel(e *ast.Parallel) evalFn {
	val := c.expr(e.Value)
	var opts evalFn
	if e.Options != nil {
		opts = c.expr(e.Options)
	}
	s := c.here(e.Span)
	var p *funcProto
	switch b := e.Body.(type) {
	case *ast.Closure:
		p = c.compileFunction("parallel", b.Span, b.Params, b.Body, false, false)
	case *ast.Block:
		p = c.compileFunction("parallel", b.Span, nil, b.Stmts, false, false)
	default:
		c.fail(e.Span, "parallel needs a body")
		return nilFn
	}
	mode := e.Mode
	asStream := e.AsStream && mode != ast.ParallelSettle
	return func(f *frame) (Value, error) {
		v, err := val(f)
		if err != nil {
			return Nil, err
		}
		var items []Value
		th := f.th
		if mode == ast.ParallelCount {
			if v.k != KindInt {
				return Nil, s.wrap(typeError("parallel count must be an int, got %s", v.TypeName()))
			}
			n := max(int64(v.n), 0)
			// Every branch is a task alive at once: the task budget is
			// checked before anything is allocated for them.
			if err := th.in.run.CheckTasks(n); err != nil {
				return Nil, err
			}
			if err := th.alloc(n * (valueSize + taskSize)); err != nil {
				return Nil, err
			}
			items = make([]Value, n)
			for i := range items {
				items[i] = Int(int64(i))
			}
		} else {
			items, err = f.th.collect(v)
			if err != nil {
				return Nil, s.wrap(err)
			}
		}
		limit := 0
		if opts != nil {
			o, err := opts(f)
			if err != nil {
				return Nil, err
			}
			if o.k == KindDict {
				if m, ok := o.r.(*Dict).Get("max_concurrent"); ok && m.k == KindInt {
					limit = int(int64(m.n))
				}
			}
		}
		cl := p.makeClosure(f)
		if mode != ast.ParallelCount {
			if err := th.in.run.CheckTasks(int64(len(items))); err != nil {
				return Nil, err
			}
			if err := th.alloc(int64(len(items)) * taskSize); err != nil {
				return Nil, err
			}
		}
		var finished chan int
		if asStream {
			finished = make(chan int, len(items))
		}
		// With max_concurrent, branches start in item order: branch i
		// waits for gates[i], opened at first for the first `limit` and
		// then one per finished branch.
		var gates []chan struct{}
		var gateMu sync.Mutex
		opened := 0
		openNext := func() {
			gateMu.Lock()
			if opened < len(gates) {
				close(gates[opened])
				opened++
			}
			gateMu.Unlock()
		}
		if limit > 0 && limit < len(items) {
			gates = make([]chan struct{}, len(items))
			for i := range gates {
				gates[i] = make(chan struct{})
			}
			for range limit {
				openNext()
			}
		}
		tasks := make([]*Task, len(items))
		group := th.task.childID("parallel")
		for i, it := range items {
			i, item := i, it
			var err error
			tasks[i], err = th.spawnTask(group+":"+strconv.Itoa(i), "parallel", group, func(child *thread) (Value, error) {
				if gates != nil {
					if err := child.waitOn("its turn under max_concurrent", gates[i]); err != nil {
						openNext() // never leave a later branch waiting
						return Nil, err
					}
					defer openNext()
				}
				var args []Value
				if len(cl.proto.params) > 0 {
					args = []Value{item}
				}
				if finished != nil {
					defer func() { finished <- i }()
				}
				return child.callClosure(cl, args)
			})
			if err != nil {
				return Nil, err // a stop: the run ends with the branches started
			}
		}
		if asStream {
			return parallelStream(tasks, finished, s), nil
		}
		results := make([]Value, len(tasks))
		if mode == ast.ParallelSettle {
			succeeded, failed := 0, 0
			for i, t := range tasks {
				r, err := th.await(t)
				if err != nil {
					e, ok := catchable(err)
					if !ok {
						return Nil, err
					}
					results[i] = resultErr(Str(e.Message()))
					failed++
					continue
				}
				results[i] = resultOk(r)
				succeeded++
			}
			d := NewDict(3)
			d.Set("results", NewListValue(results))
			d.Set("succeeded", Int(int64(succeeded)))
			d.Set("failed", Int(int64(failed)))
			return DictValue(d), nil
		}
		var firstErr error
		for i, t := range tasks {
			r, err := th.await(t)
			if err != nil && firstErr == nil {
				firstErr = err
				for _, o := range tasks[i+1:] {
					o.cancel()
				}
			}
			results[i] = r
		}
		if firstErr != nil {
			return Nil, s.wrap(firstErr)
		}
		return NewListValue(results), nil
	}
}

// parallelStream is the stream `parallel ... as stream` returns: the
// branches' results in the order they finish. A failed branch's error is
// raised by the pull that reaches it, and cancels the branches still
// running.
func parallelStream(tasks []*Task, finished chan int, s *site) Value {
	pulled := 0
	g := &Generator{stream: true, started: true}
	g.native = func(th *thread) (Value, bool, error) {
		if pulled == len(tasks) {
			return Nil, false, nil
		}
		i, stopped := -1, false
		th.wait("pull from a parallel stream", func() {
			select {
			case i = <-finished:
			case <-th.in.run.Done():
				stopped = true
			}
		})
		if stopped {
			return Nil, false, th.in.run.Err()
		}
		pulled++
		v, err := th.await(tasks[i])
		if err != nil {
			for _, t := range tasks {
				if !t.finished {
					t.cancel()
				}
			}
			return Nil, false, s.wrap(err)
		}
		return v, true, nil
	}
	return Value{k: KindStream, r: g}
}

// Channel is a program channel.
type Channel struct {
	name   string
	mu     sync.Mutex
	buf    []Value
	cap    int
	closed bool
	notify chan struct{} // closed and replaced on every change
}

func newChannel(name string, capacity int) *Channel {
	if capacity < 0 {
		capacity = 0
	}
	return &Channel{name: name, cap: capacity, notify: make(chan struct{})}
}

func (ch *Channel) changed() {
	close(ch.notify)
	ch.notify = make(chan struct{})
}

// send blocks while the buffer is full; false when the channel is closed.
func (ch *Channel) send(th *thread, v Value) (bool, error) {
	for {
		ch.mu.Lock()
		if ch.closed {
			ch.mu.Unlock()
			return false, nil
		}
		if ch.cap == 0 || len(ch.buf) < ch.cap {
			ch.buf = append(ch.buf, share(v))
			ch.changed()
			ch.mu.Unlock()
			return true, nil
		}
		wait := ch.notify
		ch.mu.Unlock()
		if err := th.waitOn("send on channel "+ch.name, wait); err != nil {
			return false, err
		}
	}
}

// recv blocks until a value arrives; ok false once closed and drained.
func (ch *Channel) recv(th *thread) (Value, bool, error) {
	for {
		v, ok, closed, wait := ch.tryRecv()
		if ok {
			return v, true, nil
		}
		if closed {
			return Nil, false, nil
		}
		if err := th.waitOn("receive on channel "+ch.name, wait); err != nil {
			return Nil, false, err
		}
	}
}

func (ch *Channel) tryRecv() (v Value, ok, closed bool, wait chan struct{}) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if len(ch.buf) > 0 {
		v = ch.buf[0]
		ch.buf = ch.buf[1:]
		ch.changed()
		return v, true, false, nil
	}
	return Nil, false, ch.closed, ch.notify
}

func (ch *Channel) close() {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if !ch.closed {
		ch.closed = true
		ch.changed()
	}
}

// waitOn releases the turn until wait is closed or the run/deadline ends;
// what says what the task waits for, for a deadlock report.
func (th *thread) waitOn(what string, wait <-chan struct{}) error {
	var err error
	th.wait(what, func() {
		select {
		case <-wait:
		case <-th.ctx.Done():
			err = th.doneErr()
		}
	})
	return err
}

// waitAny releases the turn until one of waits is closed, deadline
// passes (timedOut) or the run ends. A wait without a deadline may be
// part of a deadlock: what names it for the report; with a deadline
// (what is "") the task only blocks.
func (th *thread) waitAny(what string, waits []chan struct{}, deadline <-chan time.Time) (timedOut bool, err error) {
	block := th.block
	if what != "" {
		block = func(fn func()) { th.wait(what, fn) }
	}
	block(func() {
		agg := make(chan struct{}, 1)
		stop := make(chan struct{})
		defer close(stop)
		for _, w := range waits {
			go func(w chan struct{}) {
				select {
				case <-w:
					select {
					case agg <- struct{}{}:
					default:
					}
				case <-stop:
				}
			}(w)
		}
		select {
		case <-agg:
		case <-deadline:
			timedOut = true
		case <-th.ctx.Done():
			err = th.doneErr()
		}
	})
	return timedOut, err
}

func (c *compiler) selectStmt(s *ast.Select) evalFn {
	type cs struct {
		ch    evalFn
		store func(*frame, Value)
		body  evalFn
	}
	var cases []cs
	for _, sc := range s.Cases {
		c.pushBlock()
		x := cs{ch: c.borrow(sc.Channel)}
		if sc.Name != nil && sc.Name.Name != "_" {
			x.store = storeLocal(c.declare(sc.Name.Name, true))
		}
		x.body = c.block(sc.Body)
		c.popBlock()
		cases = append(cases, x)
	}
	var timeout, tbody, dbody evalFn
	if s.Timeout != nil {
		timeout = c.borrow(s.Timeout.Duration)
		tbody = c.block(s.Timeout.Body)
	}
	if s.Default != nil {
		dbody = c.block(s.Default)
	}
	st := c.here(s.Span)
	return func(f *frame) (Value, error) {
		chans := make([]*Channel, len(cases))
		what := "select"
		for i, x := range cases {
			v, err := x.ch(f)
			if err != nil {
				return Nil, err
			}
			ch, ok := v.r.(*Channel)
			if v.k != KindChannel || !ok {
				return Nil, st.wrap(typeError("select needs channels, got %s", v.TypeName()))
			}
			chans[i] = ch
			if i == 0 {
				what += " on channel " + ch.name
			} else {
				what += ", " + ch.name
			}
		}
		var deadline <-chan time.Time
		if timeout != nil {
			d, err := timeout(f)
			if err != nil {
				return Nil, err
			}
			ms, _ := DurationMillis(d)
			t := time.NewTimer(time.Duration(ms) * time.Millisecond)
			defer t.Stop()
			deadline = t.C
		}
		for {
			allClosed := len(chans) > 0
			var waits []chan struct{}
			for i, ch := range chans {
				v, ok, closed, wait := ch.tryRecv()
				if ok {
					if cases[i].store != nil {
						cases[i].store(f, v)
					}
					return cases[i].body(f)
				}
				if !closed {
					allClosed = false
				}
				waits = append(waits, wait)
			}
			if dbody != nil {
				return dbody(f)
			}
			if allClosed && timeout == nil {
				return Nil, nil
			}
			label := what
			if timeout != nil {
				label = ""
			}
			f.th.at = st
			timedOut, err := f.th.waitAny(label, waits, deadline)
			if err != nil {
				return Nil, st.wrap(err)
			}
			if timedOut {
				return tbody(f)
			}
		}
	}
}

// Atomic is an atomic integer cell shared between tasks.
type Atomic struct {
	mu sync.Mutex
	v  int64
}

func (a *Atomic) load() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.v
}
