package execution

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLimitErrorsAreOneLineAndNameTheFlag(t *testing.T) {
	for _, l := range Table {
		err := &LimitError{Resource: l.Resource, Limit: l.Default}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.HasSuffix(msg, "; raise it with "+l.Flag) {
			t.Errorf("%v: %q is not one line naming %s", l.Resource, msg, l.Flag)
		}
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&LimitError{Resource: Steps, Limit: 1_000_000}, "step budget exceeded: the program ran more than 1,000,000 steps"},
		{&LimitError{Resource: Time, Limit: int64(3 * time.Second)}, "time budget exceeded: the program ran longer than 3s"},
		{&LimitError{Resource: Memory, Limit: 256 << 20}, "memory budget exceeded: the program holds more than 256 MiB"},
		{&LimitError{Resource: Memory, Limit: 256 << 20, Need: 1 << 30}, "one operation needs 1 GiB, more than the budget of 256 MiB"},
		{&LimitError{Resource: Tasks, Limit: 10}, "task budget exceeded: more than 10 tasks alive at once"},
	} {
		if !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%q lacks %q", tc.err.Error(), tc.want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		r    Resource
		v    int64
		want string
	}{
		{Time, int64(10 * time.Minute), "10m"},
		{Time, int64(90 * time.Minute), "1h30m"},
		{Time, int64(2 * time.Hour), "2h"},
		{Time, int64(1500 * time.Millisecond), "1.5s"},
		{Memory, 256 << 20, "256 MiB"},
		{Memory, 3 << 30, "3 GiB"},
		{Steps, 1234567, "1,234,567"},
		{Tasks, 0, "unlimited"},
	} {
		if got := FormatValue(tc.r, tc.v); got != tc.want {
			t.Errorf("FormatValue(%v, %d) = %q, want %q", tc.r, tc.v, got, tc.want)
		}
	}
}

func TestDefaultsComeFromTheTable(t *testing.T) {
	d := Defaults()
	for _, l := range Table {
		if d.Get(l.Resource) != l.Default || l.Default <= 0 {
			t.Errorf("%s: default %d, table %d", l.Flag, d.Get(l.Resource), l.Default)
		}
	}
	if d.Memory > 512<<20 {
		t.Errorf("the default memory budget %d is over 512 MiB", d.Memory)
	}
}

func TestStepBudgetStopsTheRunForGood(t *testing.T) {
	r := Start(context.Background(), Limits{Steps: 10 * Interval})
	defer r.End()
	m := NewMeter(r)
	var err error
	steps := 0
	for ; steps < 100*Interval && err == nil; steps++ {
		if m.Step() {
			err = m.Check()
		}
	}
	var le *LimitError
	if !errors.As(err, &le) || le.Resource != Steps {
		t.Fatalf("got %v after %d steps, want a step limit", err, steps)
	}
	if steps > 11*Interval {
		t.Errorf("stopped after %d steps, limit %d", steps, 10*Interval)
	}
	// Another thread of the run meets the same stop at its next check,
	// and so does the first one if it tries to go on.
	other := NewMeter(r)
	if err2 := other.Steps(Interval); err2 != err {
		t.Errorf("another thread got %v, want the same stop %v", err2, err)
	}
	if err3 := m.Steps(1); err3 != nil {
		t.Errorf("no check due yet, got %v", err3)
	}
	if err3 := m.Steps(Interval); err3 != err {
		t.Errorf("the stop was not sticky: %v", err3)
	}
	if !IsStop(err) || r.Context().Err() == nil {
		t.Errorf("the run's context is not done after the stop")
	}
}

func TestTimeBudget(t *testing.T) {
	r := Start(context.Background(), Limits{Time: 20 * time.Millisecond})
	defer r.End()
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the time limit did not end the run's context")
	}
	var le *LimitError
	if err := r.Err(); !errors.As(err, &le) || le.Resource != Time {
		t.Fatalf("got %v, want a time limit", err)
	}
}

func TestParentCancellationIsACancelledStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := Start(ctx, Limits{})
	defer r.End()
	cancel()
	var ce *CancelledError
	m := NewMeter(r)
	if err := m.Steps(Interval); !errors.As(err, &ce) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want a cancellation wrapping context.Canceled", err)
	}
}

func TestAllocRefusesMoreThanTheBudgetAtOnce(t *testing.T) {
	r := Start(context.Background(), Limits{Memory: 64 << 20})
	defer r.End()
	if err := r.Alloc(1 << 20); err != nil {
		t.Fatalf("a small charge failed: %v", err)
	}
	err := r.Alloc(1 << 30)
	var le *LimitError
	if !errors.As(err, &le) || le.Resource != Memory || le.Need != 1<<30 {
		t.Fatalf("got %v, want a memory limit naming 1 GiB", err)
	}
}

func TestAllocNoticesTheHeap(t *testing.T) {
	r := Start(context.Background(), Limits{Memory: 32 << 20})
	defer r.End()
	var keep [][]byte
	var err error
	for i := 0; i < 64 && err == nil; i++ {
		err = r.Alloc(1 << 20)
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.KeepAlive(keep)
	var le *LimitError
	if !errors.As(err, &le) || le.Resource != Memory {
		t.Fatalf("holding 64 MiB under a 32 MiB budget: got %v", err)
	}
	if len(keep) > 40 {
		t.Errorf("noticed only after %d MiB", len(keep))
	}
}

func TestTaskBudget(t *testing.T) {
	r := Start(context.Background(), Limits{Tasks: 3})
	defer r.End()
	if err := r.StartTask(); err != nil {
		t.Fatal(err)
	}
	if err := r.CheckTasks(1); err != nil {
		t.Fatalf("3 tasks under a limit of 3: %v", err)
	}
	if err := r.CheckTasks(2); !IsStop(err) {
		t.Fatalf("4 tasks under a limit of 3: got %v", err)
	}
}

func TestTurnIsFIFOAndCloseAbandonsWaiters(t *testing.T) {
	var turn Turn
	if !turn.Acquire(nil) {
		t.Fatal("a free turn was not granted")
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if turn.Acquire(nil) {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				turn.Release()
			}
		}()
		for !waitingN(&turn, i+1) {
			runtime.Gosched()
		}
	}
	turn.Release()
	wg.Wait()
	if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 {
		t.Errorf("order %v, want [0 1 2]", order)
	}

	turn.Acquire(nil)
	stop := make(chan struct{})
	got := make(chan bool, 2)
	go func() { got <- turn.Acquire(stop) }()
	go func() { got <- turn.Acquire(nil) }()
	for !waitingN(&turn, 2) {
		runtime.Gosched()
	}
	close(stop)
	if <-got {
		t.Error("a waiter whose stop closed got the turn")
	}
	turn.Close()
	if <-got {
		t.Error("a waiter got a closed turn")
	}
	if turn.Acquire(nil) {
		t.Error("Acquire after Close succeeded")
	}
}

func waitingN(t *Turn, n int) bool { return int(t.waiting.Load()) == n }

func TestTrackerReportsADeadlock(t *testing.T) {
	r := Start(context.Background(), Limits{})
	defer r.End()
	tr := r.Tracker()
	tr.Begin()
	a := &Wait{Describe: func() string { return "task 1: receive on channel a" }}
	b := &Wait{Describe: func() string { return "main: await task 1" }}
	tr.Wait(a)
	tr.Hold() // a timer is pending: no deadlock yet
	tr.Wait(b)
	time.Sleep(deadlockWindow + deadlockGrace)
	if err := r.Err(); err != nil {
		t.Fatalf("declared %v while a timer was pending", err)
	}
	tr.Unhold()
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("no deadlock declared")
	}
	var de *DeadlockError
	if err := r.Err(); !errors.As(err, &de) || len(de.Waits) != 2 || de.Waits[0] != "main: await task 1" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(de.Error(), "\n    task 1: receive on channel a") {
		t.Errorf("the report does not list each wait: %q", de.Error())
	}
}

func TestTrackerIgnoresAWaitThatEnds(t *testing.T) {
	r := Start(context.Background(), Limits{})
	defer r.End()
	tr := r.Tracker()
	w := &Wait{Describe: func() string { return "main" }}
	for range 20 {
		tr.Wait(w)
		tr.Woken(w)
	}
	time.Sleep(deadlockWindow + deadlockGrace)
	if err := r.Err(); err != nil {
		t.Fatalf("declared %v for waits that ended", err)
	}
}

// TestTrackerWaitsOutAStarvedWake: a task whose partner has handed it a
// value looks blocked until its thread runs again and says Woken; on a
// loaded machine that can take far longer than one grace window, and no
// deadlock may be declared meanwhile.
func TestTrackerWaitsOutAStarvedWake(t *testing.T) {
	r := Start(context.Background(), Limits{})
	defer r.End()
	tr := r.Tracker()
	w := &Wait{Describe: func() string { return "main: receive" }}
	tr.Wait(w)
	time.Sleep(4 * deadlockGrace) // the woken task's thread is starved
	tr.Woken(w)
	time.Sleep(deadlockWindow)
	if err := r.Err(); err != nil {
		t.Fatalf("declared %v while the woken task was starved", err)
	}
}
