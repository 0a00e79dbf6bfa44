package execution

import (
	"context"
	"errors"
	"sync/atomic"
)

// Interval is how many steps a Meter counts between two checks of its
// run: the cost of a check (an atomic add, a channel poll) is spread over
// this many steps, and a stop is noticed within this many steps.
const Interval = 1024

// allocCheck is how many bytes may be charged between two readings of the
// heap; a single charge this large reads it at once.
const allocCheck = 4 << 20

// heapEvery is how many step checks pass between two readings of the heap
// when nothing is charged: allocations no builtin charges (list literals,
// small strings) are caught within heapEvery*Interval steps.
const heapEvery = 64

// Run is one program run: its limits, its context and how it ended. All
// of a run's threads (the main program, tasks, generators, goroutines)
// share it; its methods are safe for concurrent use.
type Run struct {
	limits Limits
	ctx    context.Context
	cancel context.CancelCauseFunc
	// release frees the deadline's timer.
	release context.CancelFunc
	done    <-chan struct{}

	steps   atomic.Int64
	charged atomic.Int64
	checks  atomic.Uint32
	tasks   atomic.Int64
	stopErr atomic.Pointer[error]
	memory  bool // joined the process's heap accounting
	ended   atomic.Bool

	turn    Turn
	tracker *Tracker
}

// Start begins a run bounded by l under parent (nil: Background). The
// run's context is done when parent is, when the time limit passes, or
// when Stop is called; End must be called when the run is over.
func Start(parent context.Context, l Limits) *Run {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	r := &Run{limits: l, ctx: ctx, cancel: cancel}
	if l.Time > 0 {
		r.ctx, r.release = context.WithTimeoutCause(ctx, l.Time, &LimitError{Resource: Time, Limit: int64(l.Time)})
	}
	r.done = r.ctx.Done()
	r.tasks.Store(1) // the main program
	r.tracker = newTracker(r)
	if l.Memory > 0 {
		joinHeap(l.Memory)
		r.memory = true
	}
	return r
}

// errEnded is the cause of a run's context once End has been called.
var errEnded = errors.New("the run ended")

// End releases the run: its context is cancelled (goroutines still
// waiting on it give up) and its memory budget leaves the process's
// accounting. It is idempotent.
func (r *Run) End() {
	if r == nil || !r.ended.CompareAndSwap(false, true) {
		return
	}
	r.cancel(errEnded)
	if r.release != nil {
		r.release()
	}
	if r.memory {
		leaveHeap(r.limits.Memory)
	}
}

// Turn is the run's turn: who runs program code now.
func (r *Run) Turn() *Turn { return &r.turn }

// Tracker is the run's deadlock tracker.
func (r *Run) Tracker() *Tracker { return r.tracker }

// Limits returns the run's limits.
func (r *Run) Limits() Limits { return r.limits }

// Context is the run's context: done when the run must stop.
func (r *Run) Context() context.Context { return r.ctx }

// Done is the run's context's Done channel.
func (r *Run) Done() <-chan struct{} { return r.done }

// Err returns nil while the run may go on, else the stop that ended it:
// a *LimitError, a *DeadlockError or a *CancelledError. Every call after
// the first stop returns the same error value.
func (r *Run) Err() error {
	if r == nil {
		return nil
	}
	select {
	case <-r.done:
	default:
		return nil
	}
	if p := r.stopErr.Load(); p != nil {
		return *p
	}
	var err error
	cause := context.Cause(r.ctx)
	if stop := AsStop(cause); stop != nil {
		err = stop
	} else {
		err = &CancelledError{Cause: cause}
	}
	r.stopErr.CompareAndSwap(nil, &err)
	return *r.stopErr.Load()
}

// Stop ends the run with err (a stop error; another error is wrapped as
// a cancellation) unless it has already stopped, and returns the error
// the run ended with.
func (r *Run) Stop(err error) error {
	if !IsStop(err) {
		err = &CancelledError{Cause: err}
	}
	r.cancel(err)
	return r.Err()
}

// Tick accounts n steps and checks the run: the step budget, a stop, and
// every heapEvery ticks the heap. Meter.Check calls it; an interpreter
// calls it directly only for work it counts itself.
func (r *Run) Tick(n int64) error {
	if r == nil {
		return nil
	}
	if max := r.limits.Steps; max > 0 && r.steps.Add(n) > max {
		return r.Stop(&LimitError{Resource: Steps, Limit: max})
	}
	select {
	case <-r.done:
		return r.Err()
	default:
	}
	if r.memory && r.checks.Add(1)%heapEvery == 0 {
		return r.checkHeap(0)
	}
	return nil
}

// Steps returns how many steps the run has accounted (only counted when
// the run has a step limit).
func (r *Run) Steps() int64 { return r.steps.Load() }

// Alloc charges n bytes the caller is about to allocate. A charge larger
// than the whole memory budget is refused at once; every allocCheck bytes
// charged (and for every charge that large) the run checks for a stop and
// reads the heap.
func (r *Run) Alloc(n int64) error {
	if r == nil || n <= 0 {
		return nil
	}
	if max := r.limits.Memory; max > 0 && n > max {
		return r.Stop(&LimitError{Resource: Memory, Limit: max, Need: n})
	}
	if r.charged.Add(n) < allocCheck && n < allocCheck {
		return nil
	}
	r.charged.Store(0)
	if err := r.Err(); err != nil {
		return err
	}
	if r.memory {
		return r.checkHeap(n)
	}
	return nil
}

// checkHeap stops the run when the heap, with need more bytes, is over
// the budget (see heap.go).
func (r *Run) checkHeap(need int64) error {
	if heapOver(need) {
		return r.Stop(&LimitError{Resource: Memory, Limit: r.limits.Memory})
	}
	return nil
}

// StartTask counts a new task (spawn, a parallel branch, a goroutine);
// over the task limit it stops the run. Every successful StartTask is
// paired with one EndTask.
func (r *Run) StartTask() error {
	if r == nil {
		return nil
	}
	if err := r.Err(); err != nil {
		return err
	}
	n := r.tasks.Add(1)
	if max := r.limits.Tasks; max > 0 && n > max {
		r.tasks.Add(-1)
		return r.Stop(&LimitError{Resource: Tasks, Limit: max})
	}
	return nil
}

// CheckTasks stops the run unless n more tasks fit under the task limit,
// without counting them: a parallel block checks its branches at once
// before it allocates anything for them, then starts each one.
func (r *Run) CheckTasks(n int64) error {
	if r == nil {
		return nil
	}
	if err := r.Err(); err != nil {
		return err
	}
	if max := r.limits.Tasks; max > 0 && r.tasks.Load()+n > max {
		return r.Stop(&LimitError{Resource: Tasks, Limit: max})
	}
	return nil
}

// EndTask counts a task as finished.
func (r *Run) EndTask() {
	if r != nil {
		r.tasks.Add(-1)
	}
}
