package resilience

import (
	"sync"
	"time"

	"github.com/harnlang/harn-check/runtime/harn"
)

// Circuit breakers (the resilience family): circuit_breaker(name,
// threshold = 5, reset_ms = 30000) declares a breaker and returns its
// name; circuit_record_failure counts a failure and returns true when it
// is the one that opens the circuit; circuit_check reports "closed",
// "open", or "half_open" once reset_ms has passed since it opened;
// circuit_record_success and circuit_reset close it. A name never
// declared is closed and ignores failures.

type circuit struct {
	failures, threshold int64
	reset               time.Duration
	openedAt            time.Time // zero while closed
}

type circuits struct {
	mu sync.Mutex
	by map[string]*circuit
}

func circuitsOf(in *harn.Interp) *circuits {
	return in.State("circuits", func() any { return &circuits{by: map[string]*circuit{}} }).(*circuits)
}

func circuitName(args []harn.Value) string {
	if len(args) == 0 {
		return "default"
	}
	return harn.Display(args[0])
}

func install(lib *harn.Library) {
	lib.Builtin("circuit_breaker", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		name := circuitName(args)
		cb := &circuit{threshold: 5, reset: 30 * time.Second}
		if v := harn.Arg(args, 1); v.Kind() == harn.KindInt {
			cb.threshold = v.AsInt()
		}
		if ms, ok := harn.DurationMillis(harn.Arg(args, 2)); ok {
			cb.reset = time.Duration(ms) * time.Millisecond
		}
		cs := circuitsOf(c.Interp())
		cs.mu.Lock()
		cs.by[name] = cb
		cs.mu.Unlock()
		return harn.Str(name), nil
	})
	lib.Builtin("circuit_check", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		cs := circuitsOf(c.Interp())
		cs.mu.Lock()
		defer cs.mu.Unlock()
		cb := cs.by[circuitName(args)]
		switch {
		case cb == nil || cb.openedAt.IsZero():
			return harn.Str("closed"), nil
		case time.Since(cb.openedAt) >= cb.reset:
			return harn.Str("half_open"), nil
		}
		return harn.Str("open"), nil
	})
	lib.Builtin("circuit_record_failure", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		cs := circuitsOf(c.Interp())
		cs.mu.Lock()
		defer cs.mu.Unlock()
		cb := cs.by[circuitName(args)]
		if cb == nil {
			return harn.Bool(false), nil
		}
		cb.failures++
		if cb.failures >= cb.threshold && cb.openedAt.IsZero() {
			cb.openedAt = time.Now()
			return harn.Bool(true), nil
		}
		return harn.Bool(false), nil
	})
	closeCircuit := func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		cs := circuitsOf(c.Interp())
		cs.mu.Lock()
		defer cs.mu.Unlock()
		if cb := cs.by[circuitName(args)]; cb != nil {
			cb.failures, cb.openedAt = 0, time.Time{}
		}
		return harn.Nil, nil
	}
	lib.Builtin("circuit_record_success", closeCircuit)
	lib.Builtin("circuit_reset", closeCircuit)
}
