package leia

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
)

// Concurrency. Leia goroutines are Go goroutines that take turns through
// the run's execution.Turn: only one runs Leia code at a time, so tables
// are never raced on, and a goroutine gives the turn up when it blocks (a
// channel operation, select, sleep, wait) and every execution.Interval steps
// when others are waiting. The execution core's Tracker counts the tasks
// that can still make progress; when every task waits on a channel with
// no timer pending, that is a deadlock: the run stops with an error that
// says where each task waits.

type scheduler struct {
	in *Interp
	// goroutines numbers the program's goroutines for deadlock reports.
	goroutines atomic.Int64
}

func (s *scheduler) init(in *Interp) {
	s.in = in
}

// acquire takes the turn of th's run. A goroutine gives up (and unwinds
// quietly) once the run has stopped or ended; the main program and its
// coroutines always get it back, since the run's end is theirs to report.
func (s *scheduler) acquire(th *Thread) {
	var stop <-chan struct{}
	if th.goroutine > 0 {
		stop = th.run.Done()
	}
	if !th.run.Turn().Acquire(stop) {
		panic(coroutineKill{})
	}
}

// block releases the turn before a wait. A timed wait (sleep, a select
// with a timer, a network call) ends by itself; an untimed one only by
// another task, and counts towards a deadlock, described by what (an
// operation) at pos.
func (s *scheduler) block(th *Thread, timed bool, what string, pos int32) *execution.Wait {
	var w *execution.Wait
	if timed {
		th.run.Tracker().Hold()
	} else {
		w = th.waitAt(what, pos)
		th.run.Tracker().Wait(w)
	}
	th.run.Turn().Release()
	return w
}

// unblock counts the task as running again and takes the turn back.
func (s *scheduler) unblock(th *Thread, w *execution.Wait) {
	if w == nil {
		th.run.Tracker().Unhold()
	} else {
		th.run.Tracker().Woken(w)
	}
	s.acquire(th)
}

// yield lets waiting goroutines run.
func (s *scheduler) yield(th *Thread) {
	if t := th.run.Turn(); t.Waiting() {
		t.Release()
		s.acquire(th)
	}
}

// waitAt describes a wait for a deadlock report: the task, the operation
// and where the thread is, computed only if a report is made.
func (th *Thread) waitAt(what string, pos int32) *execution.Wait {
	fr := th.current()
	if pos < 0 {
		pos = fr.callPos
	}
	var chunk *Chunk
	fn := ""
	if fr.cl != nil {
		chunk, fn = fr.cl.proto.chunk, fr.cl.proto.Name
	}
	id := th.goroutine
	return &execution.Wait{Describe: func() string {
		who := "main program"
		if id > 0 {
			who = "goroutine " + strconv.FormatInt(id, 10)
		}
		s := who + ": " + what
		if chunk != nil && pos >= 0 {
			line, col := chunk.position(int(pos))
			s += fmt.Sprintf(" at %s:%d:%d", chunk.Name, line, col)
		}
		if fn != "" {
			s += " in " + fn
		}
		return s
	}}
}

// ---------------------------------------------------------------------------
// Goroutines

func (th *Thread) spawn(f Value, args []Value, pos int32) {
	if !f.IsFunction() && th.metaField(f, "__call").k == KindNil {
		panic(th.runtimeError(pos, "go: attempt to call a %s value", f.TypeName()))
	}
	in := th.in
	run := th.run
	if err := run.StartTask(); err != nil {
		panic(th.stopError(err, pos))
	}
	s := &in.sched
	run.Tracker().Begin()
	id := s.goroutines.Add(1)
	go func() {
		defer run.EndTask()
		defer run.Tracker().End()
		held := false
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(coroutineKill); !ok {
					fmt.Fprintf(in.stderr, "goroutine panic: %v\n", r)
				}
			}
			if held {
				run.Turn().Release()
			}
		}()
		nt := newThread(in)
		nt.run, nt.meter = run, execution.NewMeter(run)
		nt.goroutine = id
		s.acquire(nt)
		held = true
		e := nt.protectAll(func() { nt.callAt(f, args, -1) })
		if e != nil && !execution.IsStop(e.Err) && run.Err() == nil {
			in.outMu.Lock()
			fmt.Fprintf(in.stderr, "error in goroutine: %s\n", e.Error())
			in.outMu.Unlock()
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
	w := s.block(th, false, "send on a channel", pos)
	err := func() (err error) {
		defer func() {
			if recover() != nil {
				err = errClosedSend
			}
		}()
		select {
		case ch.c <- v:
		case <-th.run.Done():
			return errRunDone
		}
		return nil
	}()
	s.unblock(th, w)
	th.checkWaitErr(err, pos)
}

var (
	errClosedSend = fmt.Errorf("send on closed channel")
	// errRunDone: the run stopped (a limit, a deadlock, a cancellation)
	// or ended (the main program returned) during a wait.
	errRunDone = fmt.Errorf("the run is over")
)

func (th *Thread) checkWaitErr(err error, pos int32) {
	switch err {
	case nil:
		return
	case errRunDone:
		panic(th.stopError(th.run.Err(), pos))
	case errClosedSend:
		panic(th.runtimeError(pos, "%s", err.Error()))
	}
	panic(th.stopError(err, pos))
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
	w := s.block(th, false, "receive from a channel", pos)
	var v Value
	var ok bool
	var err error
	select {
	case v, ok = <-ch.c:
	case <-th.run.Done():
		err = errRunDone
	}
	s.unblock(th, w)
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
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(th.run.Done())})
	w := s.block(th, false, "select", pos)
	i, v, ok, err = try(cases)
	s.unblock(th, w)
	th.checkWaitErr(err, pos)
	if i < n {
		return i, chanValue(v), ok
	}
	th.checkWaitErr(errRunDone, pos)
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
		s.yield(th)
		return
	}
	w := s.block(th, true, "", pos)
	t := time.NewTimer(d)
	var err error
	select {
	case <-t.C:
	case <-th.run.Done():
		err = errRunDone
	}
	t.Stop()
	s.unblock(th, w)
	th.checkWaitErr(err, pos)
}

// after returns a channel that receives one value after d.
func (th *Thread) after(d time.Duration) *Channel {
	ch := NewChannel(1)
	// A pending timer may wake a task: no deadlock meanwhile.
	tr := th.run.Tracker()
	tr.Hold()
	time.AfterFunc(d, func() {
		ch.c <- Float(float64(time.Now().UnixNano()) / 1e9)
		tr.Unhold()
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
		co.th.run, co.th.meter = th.run, execution.NewMeter(th.run)
		co.th.goroutine = th.goroutine
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
	if r.err != nil && r.err.uncatchable() {
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
