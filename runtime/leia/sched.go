package leia

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Concurrency. Leia goroutines are Go goroutines that take turns under one
// global lock (the GIL): only one runs Leia code at a time, so tables are
// never raced on, and a goroutine gives the lock up when it blocks (a
// channel operation, select, sleep, wait) and every tickInterval steps
// when others are waiting. The scheduler counts the tasks that can still
// make progress; when every task is blocked on a channel with no timer
// pending, that is a deadlock and each blocked operation fails with an
// error instead of hanging.

type scheduler struct {
	in      *Interp
	gil     sync.Mutex
	waiting atomic.Int32

	mu      sync.Mutex
	running int // tasks not blocked
	timed   int // tasks in timed waits, pending timers
	dead    chan struct{}
	stopped chan struct{}
	deadSet bool
	stopSet bool
	// epoch counts wake-ups; a deadlock is declared only if none happened
	// during a short grace period (a task may have released the lock but
	// not yet reached its Go-level wait, where its partner would find it).
	epoch    uint64
	checking bool
}

func (s *scheduler) init(in *Interp) {
	s.in = in
	s.dead = make(chan struct{})
	s.stopped = make(chan struct{})
}

func (s *scheduler) lock() {
	s.waiting.Add(1)
	s.gil.Lock()
	s.waiting.Add(-1)
}

// startTask makes the calling goroutine a running task holding the lock.
func (s *scheduler) startTask() {
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	s.lock()
}

func (s *scheduler) endTask() {
	s.mu.Lock()
	s.running--
	s.checkDeadlock()
	s.mu.Unlock()
	s.gil.Unlock()
}

// checkDeadlock must be called with mu held.
func (s *scheduler) checkDeadlock() {
	if s.running != 0 || s.timed != 0 || s.deadSet || s.checking {
		return
	}
	s.checking = true
	epoch := s.epoch
	go func() {
		time.Sleep(deadlockGrace)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.checking = false
		if s.running == 0 && s.timed == 0 && s.epoch == epoch && !s.deadSet {
			s.deadSet = true
			close(s.dead)
			return
		}
		s.checkDeadlock()
	}()
}

const deadlockGrace = 50 * time.Millisecond

// block releases the lock before a blocking wait; timed waits (sleep, a
// select with a timer) do not count towards deadlock.
func (s *scheduler) block(timed bool) {
	s.mu.Lock()
	s.running--
	if timed {
		s.timed++
	}
	s.checkDeadlock()
	s.mu.Unlock()
	s.gil.Unlock()
}

// unblock counts the task as running again (before it waits for the
// lock: it can make progress) and takes the lock.
func (s *scheduler) unblock(timed bool) {
	s.mu.Lock()
	s.running++
	s.epoch++
	if timed {
		s.timed--
	}
	s.mu.Unlock()
	s.lock()
}

// yield lets waiting goroutines run.
func (s *scheduler) yield() {
	if s.waiting.Load() > 0 {
		s.gil.Unlock()
		runtime.Gosched()
		s.lock()
	}
	select {
	case <-s.stopped:
		panic(coroutineKill{})
	default:
	}
}

// stop ends background goroutines when the main program is done.
func (s *scheduler) stop() {
	s.mu.Lock()
	if !s.stopSet {
		s.stopSet = true
		close(s.stopped)
	}
	s.mu.Unlock()
}

func (s *scheduler) addTimer(n int) {
	s.mu.Lock()
	s.timed += n
	s.checkDeadlock()
	s.mu.Unlock()
}

// ---------------------------------------------------------------------------
// Goroutines

func (th *Thread) spawn(f Value, args []Value, pos int32) {
	if !f.IsFunction() && th.metaField(f, "__call").k == KindNil {
		panic(th.runtimeError(pos, "go: attempt to call a %s value", f.TypeName()))
	}
	in := th.in
	s := &in.sched
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	go func() {
		s.lock()
		defer s.endTask()
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(coroutineKill); !ok {
					fmt.Fprintf(in.stderr, "goroutine panic: %v\n", r)
				}
			}
		}()
		nt := newThread(in)
		if e := nt.protectAll(func() { nt.callAt(f, args, -1) }); e != nil && e.Kind != KindCancelled {
			select {
			case <-s.stopped:
			default:
				in.outMu.Lock()
				fmt.Fprintf(in.stderr, "error in goroutine: %s\n", e.Error())
				in.outMu.Unlock()
			}
		}
	}()
}

// ---------------------------------------------------------------------------
// Channels

// Channel is a Leia channel: a Go channel of values.
type Channel struct {
	c      chan Value
	closed atomic.Bool
}

// NewChannel makes a channel with the given buffer size.
func NewChannel(size int) *Channel { return &Channel{c: make(chan Value, size)} }

func (th *Thread) chanArg(v Value, pos int32) *Channel {
	ch := v.Channel()
	if ch == nil {
		panic(th.runtimeError(pos, "channel expected, got %s", v.TypeName()))
	}
	return ch
}

func (th *Thread) send(cv, v Value, pos int32) {
	ch := th.chanArg(cv, pos)
	if ch.closed.Load() {
		panic(th.runtimeError(pos, "send on closed channel"))
	}
	if trySend(ch, v) {
		return
	}
	s := &th.in.sched
	s.block(false)
	err := func() (err error) {
		defer func() {
			if recover() != nil {
				err = errClosedSend
			}
		}()
		select {
		case ch.c <- v:
		case <-s.dead:
			return errDeadlock
		case <-s.stopped:
			return errStopped
		case <-th.in.doneChan():
			return th.in.ctx.Err()
		}
		return nil
	}()
	s.unblock(false)
	th.checkWaitErr(err, pos)
}

var (
	errClosedSend = fmt.Errorf("send on closed channel")
	errDeadlock   = fmt.Errorf("all goroutines are asleep - deadlock!")
	errStopped    = fmt.Errorf("program ended")
)

func (th *Thread) checkWaitErr(err error, pos int32) {
	switch err {
	case nil:
		return
	case errStopped:
		panic(coroutineKill{})
	case errClosedSend, errDeadlock:
		panic(th.runtimeError(pos, "%s", err.Error()))
	}
	e := &Error{Kind: KindCancelled, Message: "execution cancelled: " + err.Error(), Err: err}
	th.locate(e, pos)
	e.Value = String(e.Error())
	panic(e)
}

func trySend(ch *Channel, v Value) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	select {
	case ch.c <- v:
		return true
	default:
		return false
	}
}

func (in *Interp) doneChan() <-chan struct{} { return in.done }

func (th *Thread) recv(cv Value, pos int32) (Value, bool) {
	return th.recvChan(th.chanArg(cv, pos), pos)
}

func (th *Thread) recvChan(ch *Channel, pos int32) (Value, bool) {
	select {
	case v, ok := <-ch.c:
		return v, ok
	default:
	}
	s := &th.in.sched
	s.block(false)
	var v Value
	var ok bool
	var err error
	select {
	case v, ok = <-ch.c:
	case <-s.dead:
		err = errDeadlock
	case <-s.stopped:
		err = errStopped
	case <-th.in.doneChan():
		err = th.in.ctx.Err()
	}
	s.unblock(false)
	th.checkWaitErr(err, pos)
	return v, ok
}

func (th *Thread) closeChan(cv Value, pos int32) {
	ch := th.chanArg(cv, pos)
	if !ch.closed.CompareAndSwap(false, true) {
		panic(th.runtimeError(pos, "close of closed channel"))
	}
	close(ch.c)
}

// selectOp is one case of a select.
type selectOp struct {
	send bool
	ch   Value
	val  Value
}

// selectOps waits for one ready case; -1 means default ran.
func (th *Thread) selectOps(ops []selectOp, hasDefault bool, pos int32) (int, Value, bool) {
	cases := make([]reflect.SelectCase, 0, len(ops)+4)
	for _, op := range ops {
		if op.ch.k == KindNil {
			// a nil channel never becomes ready, as in Go
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf((chan Value)(nil))})
			continue
		}
		ch := th.chanArg(op.ch, pos)
		if op.send {
			if ch.closed.Load() {
				panic(th.runtimeError(pos, "send on closed channel"))
			}
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(ch.c), Send: reflect.ValueOf(op.val)})
		} else {
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch.c)})
		}
	}
	n := len(cases)
	try := func(cs []reflect.SelectCase) (i int, v reflect.Value, ok bool, err error) {
		defer func() {
			if recover() != nil {
				err = errClosedSend
			}
		}()
		i, v, ok = reflect.Select(cs)
		return
	}
	// Poll first.
	poll := append(cases[:n:n], reflect.SelectCase{Dir: reflect.SelectDefault})
	i, v, ok, err := try(poll)
	th.checkWaitErr(err, pos)
	if i < n {
		return i, chanValue(v), ok
	}
	if hasDefault {
		return -1, Nil, false
	}
	s := &th.in.sched
	cases = append(cases,
		reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.dead)},
		reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.stopped)})
	if d := th.in.doneChan(); d != nil {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(d)})
	}
	s.block(false)
	i, v, ok, err = try(cases)
	s.unblock(false)
	th.checkWaitErr(err, pos)
	switch {
	case i < n:
		return i, chanValue(v), ok
	case i == n:
		th.checkWaitErr(errDeadlock, pos)
	case i == n+1:
		th.checkWaitErr(errStopped, pos)
	default:
		th.checkWaitErr(th.in.ctx.Err(), pos)
	}
	return -1, Nil, false
}

func chanValue(v reflect.Value) Value {
	if !v.IsValid() {
		return Nil
	}
	if x, ok := v.Interface().(Value); ok {
		return x
	}
	return Nil
}

// sleep waits d, giving up the lock.
func (th *Thread) sleep(d time.Duration, pos int32) {
	s := &th.in.sched
	if d <= 0 {
		s.yield()
		return
	}
	s.block(true)
	t := time.NewTimer(d)
	var err error
	select {
	case <-t.C:
	case <-s.stopped:
		err = errStopped
	case <-th.in.doneChan():
		err = th.in.ctx.Err()
	}
	t.Stop()
	s.unblock(true)
	th.checkWaitErr(err, pos)
}

// after returns a channel that receives one value after d.
func (th *Thread) after(d time.Duration) *Channel {
	ch := NewChannel(1)
	s := &th.in.sched
	s.addTimer(1)
	time.AfterFunc(d, func() {
		ch.c <- Float(float64(time.Now().UnixNano()) / 1e9)
		s.addTimer(-1)
	})
	return ch
}

// ---------------------------------------------------------------------------
// Coroutines

// Coroutine is a Leia coroutine: a function running on its own thread that
// hands control back and forth with its resumer.
type Coroutine struct {
	in       *Interp
	fn       Value
	th       *Thread
	status   string
	started  bool
	resumeCh chan []Value
	yieldCh  chan coResult
	killCh   chan struct{}
	killOnce sync.Once
}

type coResult struct {
	vals []Value
	err  *Error
	done bool
}

func newCoroutine(in *Interp, fn Value) *Coroutine {
	co := &Coroutine{in: in, fn: fn, status: "suspended", resumeCh: make(chan []Value), yieldCh: make(chan coResult), killCh: make(chan struct{})}
	return co
}

// resume runs co until it yields, returns or fails.
func (th *Thread) resume(co *Coroutine, args []Value) ([]Value, *Error) {
	switch co.status {
	case "dead":
		return nil, &Error{Kind: KindRuntime, Message: "cannot resume dead coroutine", Value: String("cannot resume dead coroutine")}
	case "running", "normal":
		return nil, &Error{Kind: KindRuntime, Message: "cannot resume non-suspended coroutine", Value: String("cannot resume non-suspended coroutine")}
	}
	if th.co != nil {
		th.co.status = "normal"
	}
	co.status = "running"
	args = append([]Value(nil), args...)
	if !co.started {
		co.started = true
		co.th = newThread(th.in)
		co.th.co = co
		th.in.coMu.Lock()
		th.in.coSet[co] = struct{}{}
		th.in.coMu.Unlock()
		go co.run(args)
	} else {
		co.resumeCh <- args
	}
	r := <-co.yieldCh
	if th.co != nil {
		th.co.status = "running"
	}
	if r.err != nil && (r.err.Kind == KindCancelled || r.err.Kind == KindExit) {
		co.status = "dead"
		panic(r.err)
	}
	if r.done || r.err != nil {
		co.status = "dead"
		th.in.coMu.Lock()
		delete(th.in.coSet, co)
		th.in.coMu.Unlock()
	} else {
		co.status = "suspended"
	}
	return r.vals, r.err
}

func (co *Coroutine) run(args []Value) {
	th := co.th
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(coroutineKill); ok {
				return
			}
			co.yieldCh <- coResult{err: &Error{Kind: KindRuntime, Message: fmt.Sprint(r), Value: String(fmt.Sprint(r))}}
		}
	}()
	var rets []Value
	e := th.protectAll(func() {
		rets = append([]Value(nil), th.callAt(co.fn, args, -1)...)
	})
	if e != nil {
		co.yieldCh <- coResult{err: e}
		return
	}
	co.yieldCh <- coResult{vals: rets, done: true}
}

// yield hands vals to the resumer and waits to be resumed.
func (th *Thread) yield(vals []Value) []Value {
	co := th.co
	co.yieldCh <- coResult{vals: append([]Value(nil), vals...)}
	select {
	case args := <-co.resumeCh:
		return args
	case <-co.killCh:
		panic(coroutineKill{})
	}
}

func (co *Coroutine) kill() {
	co.killOnce.Do(func() { close(co.killCh) })
}
