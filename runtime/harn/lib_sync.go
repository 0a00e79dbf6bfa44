package harn

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// Named synchronisation primitives shared by the run's tasks:
// sync_mutex_acquire, sync_semaphore_acquire, sync_gate_acquire and
// sync_rwlock_acquire hand out permits (a sync_permit value, or nil when a
// timeout passes first), sync_release gives them back, sync_metrics
// reports counters. Every primitive is a weighted semaphore named
// "kind:key" with a fixed capacity; waiters are admitted first come,
// first served. `mutex { }` blocks hold the mutex named "__default__".

type syncRuntime struct {
	mu    sync.Mutex
	prims map[string]*syncPrim
}

type syncPrim struct {
	kind, key string
	capacity  int64
	avail     int64
	waiters   []*syncWaiter
	m         syncMetrics
}

type syncMetrics struct {
	acquisitions, timeouts, cancellations, releases int64
	held, queue, maxQueue, waitMs, heldMs           int64
}

type syncWaiter struct {
	permits int64
	granted bool
	ready   chan struct{}
}

// syncPermit is what an acquire returns; releasing it twice is a no-op.
type syncPermit struct {
	prim     *syncPrim
	permits  int64
	at       time.Time
	released bool
}

func syncOf(in *Interp) *syncRuntime {
	return in.State("sync", func() any { return &syncRuntime{prims: map[string]*syncPrim{}} }).(*syncRuntime)
}

// acquire takes permits from the primitive kind:key, waiting at most
// timeout (forever when negative). It returns nil when the timeout passes.
func (rt *syncRuntime) acquire(th *thread, kind, key string, capacity, permits int64, timeout time.Duration) (*syncPermit, error) {
	if permits <= 0 {
		return nil, runtimeError("sync %s '%s' requires at least one permit", kind, key)
	}
	if permits > capacity {
		return nil, runtimeError("sync %s '%s' requested %d permits from capacity %d", kind, key, permits, capacity)
	}
	rt.mu.Lock()
	id := kind + ":" + key
	p := rt.prims[id]
	if p == nil {
		p = &syncPrim{kind: kind, key: key, capacity: capacity, avail: capacity}
		rt.prims[id] = p
	} else if p.capacity != capacity {
		rt.mu.Unlock()
		return nil, runtimeError("sync %s '%s' already exists with capacity %d, not %d", kind, key, p.capacity, capacity)
	}
	start := time.Now()
	if len(p.waiters) == 0 && p.avail >= permits {
		p.avail -= permits
		permit := p.lease(permits, 0)
		rt.mu.Unlock()
		return permit, nil
	}
	if timeout == 0 {
		p.m.timeouts++
		rt.mu.Unlock()
		return nil, nil
	}
	w := &syncWaiter{permits: permits, ready: make(chan struct{})}
	p.waiters = append(p.waiters, w)
	p.m.queue++
	p.m.maxQueue = max(p.m.maxQueue, p.m.queue)
	rt.mu.Unlock()

	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	cancelled := false
	wait := th.block
	if timer == nil {
		wait = func(f func()) { th.wait("sync "+kind+" '"+key+"'", f) }
	}
	wait(func() {
		select {
		case <-w.ready:
		case <-timer:
		case <-th.ctx.Done():
			cancelled = true
		}
	})
	rt.mu.Lock()
	defer rt.mu.Unlock()
	p.m.queue--
	if w.granted {
		// Granted while the timer fired: keep the permits.
		return p.lease(permits, time.Since(start)), nil
	}
	for i, o := range p.waiters {
		if o == w {
			p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
			break
		}
	}
	p.admit() // a smaller waiter behind this one may fit now
	if cancelled {
		p.m.cancellations++
		if err := th.checkLimits(); err != nil {
			return nil, err
		}
		return nil, errTaskCancelled
	}
	p.m.timeouts++
	return nil, nil
}

// lease records an acquisition; the runtime's lock is held.
func (p *syncPrim) lease(permits int64, wait time.Duration) *syncPermit {
	p.m.acquisitions++
	p.m.held += permits
	p.m.waitMs += wait.Milliseconds()
	return &syncPermit{prim: p, permits: permits, at: time.Now()}
}

// admit grants queued waiters in order while the head fits; the
// runtime's lock is held.
func (p *syncPrim) admit() {
	for len(p.waiters) > 0 && p.waiters[0].permits <= p.avail {
		w := p.waiters[0]
		p.waiters = p.waiters[1:]
		p.avail -= w.permits
		w.granted = true
		close(w.ready)
	}
}

func (rt *syncRuntime) release(permit *syncPermit) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if permit.released {
		return false
	}
	permit.released = true
	p := permit.prim
	p.avail += permit.permits
	p.m.releases++
	p.m.held -= permit.permits
	p.m.heldMs += time.Since(permit.at).Milliseconds()
	p.admit()
	return true
}

func (p *syncPrim) metrics() Value {
	d := NewDict(12)
	d.Set("kind", Str(p.kind))
	d.Set("key", Str(p.key))
	d.Set("capacity", Int(p.capacity))
	d.Set("acquisition_count", Int(p.m.acquisitions))
	d.Set("timeout_count", Int(p.m.timeouts))
	d.Set("cancellation_count", Int(p.m.cancellations))
	d.Set("release_count", Int(p.m.releases))
	d.Set("current_held", Int(p.m.held))
	d.Set("current_queue_depth", Int(p.m.queue))
	d.Set("max_queue_depth", Int(p.m.maxQueue))
	d.Set("total_wait_ms", Int(p.m.waitMs))
	d.Set("total_held_ms", Int(p.m.heldMs))
	return DictValue(d)
}

func permitValue(p *syncPermit) Value {
	if p == nil {
		return Nil
	}
	return Value{k: KindObject, r: &Object{TypeName: "sync_permit", Data: p}}
}

// syncTimeout reads an optional timeout argument (ms or a duration):
// absent or nil waits forever.
func syncTimeout(v Value) time.Duration {
	if ms, ok := DurationMillis(v); ok {
		return time.Duration(max(ms, 0)) * time.Millisecond
	}
	return -1
}

// positiveArg reads an optional positive count argument.
func positiveArg(name string, args []Value, i int, def int64) (int64, error) {
	v := Arg(args, i)
	if v.k == KindNil {
		return def, nil
	}
	if v.k != KindInt || int64(v.n) <= 0 || int64(v.n) > 1<<32-1 {
		return 0, runtimeError("%s: argument %d must be a positive int", name, i+1)
	}
	return int64(v.n), nil
}

func keyArg(args []Value, def string) string {
	if v := Arg(args, 0); v.k != KindNil || len(args) > 0 {
		return Display(v)
	}
	return def
}

func installSync(lib *Library) {
	lib.Builtin("sync_mutex_acquire", func(c *Call, args []Value) (Value, error) {
		p, err := syncOf(c.th.in).acquire(c.th, "mutex", keyArg(args, "__default__"), 1, 1, syncTimeout(Arg(args, 1)))
		return permitValue(p), err
	})
	lib.Builtin("sync_semaphore_acquire", func(c *Call, args []Value) (Value, error) {
		capacity, err := positiveArg(c.Name, args, 1, 1)
		if err != nil {
			return Nil, err
		}
		permits, err := positiveArg(c.Name, args, 2, 1)
		if err != nil {
			return Nil, err
		}
		p, err := syncOf(c.th.in).acquire(c.th, "semaphore", keyArg(args, "default"), capacity, permits, syncTimeout(Arg(args, 3)))
		return permitValue(p), err
	})
	lib.Builtin("sync_gate_acquire", func(c *Call, args []Value) (Value, error) {
		limit, err := positiveArg(c.Name, args, 1, 1)
		if err != nil {
			return Nil, err
		}
		p, err := syncOf(c.th.in).acquire(c.th, "gate", keyArg(args, "default"), limit, 1, syncTimeout(Arg(args, 2)))
		return permitValue(p), err
	})
	lib.Builtin("sync_rwlock_acquire", func(c *Call, args []Value) (Value, error) {
		// Readers take one permit of many, a writer takes them all.
		const capacity = 1024
		permits := int64(1)
		switch mode := Arg(args, 1); {
		case mode.k == KindNil || Display(mode) == "read":
		case Display(mode) == "write":
			permits = capacity
		default:
			return Nil, runtimeError("sync_rwlock_acquire: mode must be read or write")
		}
		p, err := syncOf(c.th.in).acquire(c.th, "rwlock", keyArg(args, "default"), capacity, permits, syncTimeout(Arg(args, 2)))
		return permitValue(p), err
	})
	lib.Builtin("sync_release", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if o, ok := v.r.(*Object); ok && v.k == KindObject {
			if p, ok := o.Data.(*syncPermit); ok {
				return Bool(syncOf(c.th.in).release(p)), nil
			}
		}
		return Nil, runtimeError("sync_release: first argument must be a sync permit")
	})
	lib.Builtin("sync_metrics", func(c *Call, args []Value) (Value, error) {
		rt := syncOf(c.th.in)
		rt.mu.Lock()
		defer rt.mu.Unlock()
		kind, key := Arg(args, 0), Arg(args, 1)
		if len(args) >= 2 {
			if p := rt.prims[Display(kind)+":"+Display(key)]; p != nil {
				return p.metrics(), nil
			}
			return Nil, nil
		}
		ids := make([]string, 0, len(rt.prims))
		for id := range rt.prims {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		var rows []Value
		for _, id := range ids {
			if p := rt.prims[id]; len(args) == 0 || p.kind == Display(kind) {
				rows = append(rows, p.metrics())
			}
		}
		return NewListValue(rows), nil
	})
}

// withDefaultMutex runs body holding the "__default__" mutex (a `mutex`
// block), releasing it however the body ends.
func withDefaultMutex(f *frame, body evalFn) (Value, error) {
	rt := syncOf(f.th.in)
	p, err := rt.acquire(f.th, "mutex", "__default__", 1, 1, -1)
	if err != nil {
		return Nil, err
	}
	if p == nil {
		return Nil, fmt.Errorf("mutex: not acquired")
	}
	defer rt.release(p)
	return body(f)
}
