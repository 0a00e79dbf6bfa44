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

// deadlockGrace is how long a deadlock must persist before it is
// declared: a task that released its turn may not yet have reached the
// Go-level wait where its partner would find it.
const deadlockGrace = 50 * time.Millisecond

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
	epoch := t.epoch
	time.AfterFunc(deadlockGrace, func() { t.confirm(epoch) })
}

func (t *Tracker) confirm(epoch uint64) {
	t.mu.Lock()
	t.timerOn = false
	if !t.stuck() {
		t.mu.Unlock()
		return
	}
	if t.epoch != epoch {
		t.check()
		t.mu.Unlock()
		return
	}
	waits := make([]string, 0, len(t.waits))
	for w := range t.waits {
		waits = append(waits, w.Describe())
	}
	t.mu.Unlock()
	slices.Sort(waits)
	t.run.Stop(&DeadlockError{Waits: waits})
}
