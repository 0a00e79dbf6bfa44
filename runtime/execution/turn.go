package execution

import (
	"sync"
	"sync/atomic"
)

// Turn lets exactly one goroutine of a run execute program code at a time
// and hands the turn over in FIFO order: a goroutine keeps it until it
// releases it (it finished, it blocks, or it yields to waiting ones), and
// the one that has waited longest gets it next. Program state therefore
// needs no locks, and a program whose tasks do not race on timers gives
// the same output every time.
type Turn struct {
	mu      sync.Mutex
	running bool
	closed  bool
	queue   []*turnWaiter
	waiting atomic.Int32
}

type turnWaiter struct {
	ch chan struct{}
	// granted: the turn passed to this waiter; abandoned: the turn was
	// closed. Set under mu before ch is closed.
	granted, abandoned, gone bool
}

// Acquire waits for the turn. It returns false without the turn when the
// turn has been closed, or when stop (nil: never) is closed first.
func (t *Turn) Acquire(stop <-chan struct{}) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return false
	}
	if !t.running {
		t.running = true
		t.mu.Unlock()
		return true
	}
	w := &turnWaiter{ch: make(chan struct{})}
	t.queue = append(t.queue, w)
	t.waiting.Add(1)
	t.mu.Unlock()
	select {
	case <-w.ch:
		return w.granted
	case <-stop:
	}
	t.mu.Lock()
	if w.granted {
		// The turn arrived as stop did: pass it on.
		t.mu.Unlock()
		t.Release()
		return false
	}
	if !w.abandoned {
		w.gone = true
		t.waiting.Add(-1)
	}
	t.mu.Unlock()
	return false
}

// Release gives the turn to the longest waiting goroutine, if any.
func (t *Turn) Release() {
	t.mu.Lock()
	for len(t.queue) > 0 {
		w := t.queue[0]
		t.queue[0] = nil
		t.queue = t.queue[1:]
		if w.gone {
			continue
		}
		t.waiting.Add(-1)
		w.granted = true
		t.mu.Unlock()
		close(w.ch) // the turn passes directly: running stays true
		return
	}
	t.running = false
	t.mu.Unlock()
}

// Waiting reports whether another goroutine waits for the turn.
func (t *Turn) Waiting() bool { return t.waiting.Load() > 0 }

// Yield lets the goroutines waiting for the turn run first, then takes it
// back; false means the turn was closed (or stop closed) meanwhile and the
// caller no longer holds it.
func (t *Turn) Yield(stop <-chan struct{}) bool {
	if !t.Waiting() {
		return true
	}
	t.Release()
	return t.Acquire(stop)
}

// Close abandons the goroutines waiting for the turn and every later
// Acquire: they return false. The holder of the turn keeps it until it
// releases it.
func (t *Turn) Close() {
	t.mu.Lock()
	t.closed = true
	q := t.queue
	t.queue = nil
	for _, w := range q {
		if !w.gone {
			w.abandoned = true
			t.waiting.Add(-1)
			close(w.ch)
		}
	}
	t.mu.Unlock()
}
