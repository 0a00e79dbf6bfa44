package execution

import (
	"slices"
	"sync"
	"time"
)

// Tracker detects deadlocks: it counts a run's live tasks and knows which
// of them wait on something only another task of the run could provide
// (a channel, a task's result, a lock, a generator's consumer). When every
// live task waits so and nothing else can wake one (no timer pending, no
// timed wait, no host call in flight), the run can never progress: the
// Tracker stops it with a *DeadlockError listing where each task waits.
//
// A task is counted from Begin to End. Wait and Woken bracket a wait that
// only the run's own tasks can end; Hold and Unhold bracket anything else
// that may wake a task (a timer, a timed wait, a host call). Waits that
// the Tracker does not hear of count as progress, which can only delay a
// verdict, never cause a false one.
type Tracker struct {
	run *Run

	mu      sync.Mutex
	live    int
	waits   map[*Wait]struct{}
	holds   int
	epoch   uint64
	timerOn bool
}

// Wait is one blocked task: Describe says where it waits, for the
// deadlock report ("task 2: receive on channel jobs at main.harn:4:7").
type Wait struct {
	Describe func() string
}

// deadlockGrace is the first of the windows a deadlock must persist
// through, unchanged, before it is declared; each further window is twice
// the last, until deadlockWindow has passed in all. Between a partner's
// hand-over (a send, a close, a task's end) and the woken task's Woken
// there is a gap only the woken task can close, and on a loaded machine
// its thread may not run for tens of milliseconds: a single short window
// declared false deadlocks there. A real deadlock is reported after
// deadlockWindow; a false one needs a runnable task starved that long.
const (
	deadlockGrace  = 50 * time.Millisecond
	deadlockWindow = time.Second
)

// newTracker returns the tracker of r's tasks; the main program is live.
func newTracker(r *Run) *Tracker {
	return &Tracker{run: r, live: 1, waits: map[*Wait]struct{}{}}
}

// Begin counts a new live task.
func (t *Tracker) Begin() {
	t.mu.Lock()
	t.live++
	t.epoch++
	t.mu.Unlock()
}

// End counts a task as finished.
func (t *Tracker) End() {
	t.mu.Lock()
	t.live--
	t.epoch++
	t.check()
	t.mu.Unlock()
}

// Wait records that a task blocks on w.
func (t *Tracker) Wait(w *Wait) {
	t.mu.Lock()
	t.waits[w] = struct{}{}
	t.check()
	t.mu.Unlock()
}

// Woken records that the task blocked on w runs again.
func (t *Tracker) Woken(w *Wait) {
	t.mu.Lock()
	delete(t.waits, w)
	t.epoch++
	t.mu.Unlock()
}

// Hold records something in flight that may wake a task (a timer, a
// timed wait, a host call); Unhold its end.
func (t *Tracker) Hold() {
	t.mu.Lock()
	t.holds++
	t.epoch++
	t.mu.Unlock()
}

// Unhold ends a Hold.
func (t *Tracker) Unhold() {
	t.mu.Lock()
	t.holds--
	t.epoch++
	t.check()
	t.mu.Unlock()
}

// stuck reports whether, right now, no task can progress. Caller holds mu.
func (t *Tracker) stuck() bool {
	return t.live > 0 && len(t.waits) >= t.live && t.holds == 0
}

// check starts a confirmation when the run looks stuck. Caller holds mu.
func (t *Tracker) check() {
	if !t.stuck() || t.timerOn {
		return
	}
	t.timerOn = true
	t.confirmAfter(t.epoch, deadlockGrace, 0)
}

// confirmAfter looks again after wait; waited is how long the state with
// this epoch has already been seen stuck. Caller holds mu.
func (t *Tracker) confirmAfter(epoch uint64, wait, waited time.Duration) {
	time.AfterFunc(wait, func() { t.confirm(epoch, wait, waited+wait) })
}

func (t *Tracker) confirm(epoch uint64, last, waited time.Duration) {
	t.mu.Lock()
	if !t.stuck() {
		t.timerOn = false
		t.mu.Unlock()
		return
	}
	if t.epoch != epoch {
		t.timerOn = false
		t.check()
		t.mu.Unlock()
		return
	}
	if waited < deadlockWindow {
		t.confirmAfter(epoch, min(2*last, deadlockWindow-waited), waited)
		t.mu.Unlock()
		return
	}
	t.timerOn = false
	waits := make([]string, 0, len(t.waits))
	for w := range t.waits {
		waits = append(waits, w.Describe())
	}
	t.mu.Unlock()
	slices.Sort(waits)
	t.run.Stop(&DeadlockError{Waits: waits})
}
