package harn

import "sync"

// sched lets exactly one goroutine run program code at a time, handing
// the turn over in FIFO order, the way upstream Harn's single-threaded
// async executor does. Tasks (spawn, parallel, generators) run on their
// own goroutines but take turns: a task keeps the turn until it finishes
// or blocks (await, channel operations, sleep, process and network calls,
// a generator waiting for its consumer), then the longest-waiting task
// runs. Program state therefore needs no locks, and the output of a
// program whose tasks do not race on timers is deterministic.
type sched struct {
	mu      sync.Mutex
	running bool
	queue   []chan struct{}
}

// acquire waits for the turn.
func (s *sched) acquire() {
	s.mu.Lock()
	if !s.running {
		s.running = true
		s.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	s.queue = append(s.queue, ch)
	s.mu.Unlock()
	<-ch
}

// release gives the turn to the next waiting goroutine, if any.
func (s *sched) release() {
	s.mu.Lock()
	if len(s.queue) == 0 {
		s.running = false
		s.mu.Unlock()
		return
	}
	next := s.queue[0]
	s.queue = s.queue[1:]
	s.mu.Unlock()
	close(next) // the turn passes directly: running stays true
}
