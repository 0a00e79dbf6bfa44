package harn

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Supervisors, as upstream Harn's supervisor_* builtins: supervisor_start
// runs each child (a closure taking a context dict) as its own task under
// a one_for_one strategy; a child that throws is restarted by its policy
// ("never", "on_failure", "always", or {mode, max_restarts, window_ms,
// backoff_ms, circuit_open_ms}): at most max_restarts restarts within the
// last window_ms, each after backoff_ms; past the cap the child is
// suppressed (current_wait_reason "restart_cap_exceeded") and, with
// circuit_open_ms, tried once more after that long (half-open).
// supervisor_state, _events and _metrics read it; supervisor_stop asks
// the children to stop (is_cancelled turns true), waits up to its timeout
// for them to drain, and cancels what is still running. A child that
// ends, by success or after its policy gave up, is "stopped", "failed" or
// "suppressed"; the supervisor is "completed" when every child has ended,
// "stopped" after supervisor_stop. runtime_context().debug.supervisors
// lists the run's supervisors.

// supervisor is one supervisor_start.
type supervisor struct {
	mu                                   sync.Mutex
	id, name, strategy, status           string
	children                             []*supChild
	events                               []Value
	started, failed, restarted, suppress int64
	stopping                             bool
	begun                                time.Time
}

// supChild is one child and its restart policy.
type supChild struct {
	name, kind, status, waitReason, lastError, mode string
	maxRestarts, windowMs, backoffMs, circuitMs     int64
	restartCount                                    int64
	restarts                                        []time.Time
	fn                                              Value
	task                                            *Task
}

// supervisors is the run's list, in start order.
type supervisors struct {
	mu   sync.Mutex
	list []*supervisor
}

func supervisorsOf(in *Interp) *supervisors {
	return in.State("supervisors", func() any { return &supervisors{} }).(*supervisors)
}

func installSupervisor(lib *Library) {
	lib.Builtin("supervisor_start", supervisorStart)
	lib.Builtin("supervisor_state", func(c *Call, args []Value) (Value, error) {
		s, err := supervisorArg(c, args)
		if err != nil {
			return Nil, err
		}
		return s.state(), nil
	})
	lib.Builtin("supervisor_events", func(c *Call, args []Value) (Value, error) {
		s, err := supervisorArg(c, args)
		if err != nil {
			return Nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return NewListValue(append([]Value(nil), s.events...)), nil
	})
	lib.Builtin("supervisor_metrics", func(c *Call, args []Value) (Value, error) {
		s, err := supervisorArg(c, args)
		if err != nil {
			return Nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.metrics(), nil
	})
	lib.Builtin("supervisor_stop", func(c *Call, args []Value) (Value, error) {
		s, err := supervisorArg(c, args)
		if err != nil {
			return Nil, err
		}
		timeout := int64(5000)
		if ms, ok := DurationMillis(Arg(args, 1)); ok {
			timeout = ms
		}
		s.mu.Lock()
		s.stopping = true
		tasks := make([]*Task, 0, len(s.children))
		for _, ch := range s.children {
			if ch.task != nil {
				tasks = append(tasks, ch.task)
				ch.task.stopAsked.Store(true)
			}
		}
		s.mu.Unlock()
		deadline := time.After(time.Duration(max(timeout, 0)) * time.Millisecond)
		c.Block(func() {
			for _, t := range tasks {
				select {
				case <-t.done:
				case <-deadline:
					return
				case <-c.th.in.run.Done():
					return
				}
			}
		})
		// What did not drain in time is cancelled.
		for _, t := range tasks {
			select {
			case <-t.done:
			default:
				if t.cancel != nil {
					t.cancel()
				}
			}
		}
		s.mu.Lock()
		for _, ch := range s.children {
			if ch.status == "running" || ch.status == "backoff" {
				ch.status = "stopped"
			}
		}
		s.status = "stopped"
		s.event("supervisor_stopped", "")
		s.mu.Unlock()
		return s.state(), nil
	})
}

// supervisorArg finds the supervisor a handle (supervisor_start's dict)
// or an id names.
func supervisorArg(c *Call, args []Value) (*supervisor, error) {
	v := Arg(args, 0)
	id := ""
	switch v.k {
	case KindString:
		id = v.r.(string)
	case KindDict:
		if x, ok := v.r.(*Dict).Get("id"); ok && x.k == KindString {
			id = x.r.(string)
		}
	}
	all := supervisorsOf(c.th.in)
	all.mu.Lock()
	defer all.mu.Unlock()
	for _, s := range all.list {
		if s.id == id {
			return s, nil
		}
	}
	return nil, throwValue(Str(c.Name + ": unknown supervisor " + strconv.Quote(id)))
}

func supervisorStart(c *Call, args []Value) (Value, error) {
	spec := Arg(args, 0)
	if spec.k != KindDict {
		return Nil, throwValue(Str("supervisor_start: expected a spec dict {name, strategy, children}"))
	}
	d := spec.r.(*Dict)
	all := supervisorsOf(c.th.in)
	all.mu.Lock()
	s := &supervisor{id: "supervisor_" + strconv.Itoa(len(all.list)+1), name: OptStr(d, "name"), strategy: OptStr(d, "strategy"), status: "running", begun: time.Now()}
	all.list = append(all.list, s)
	all.mu.Unlock()
	if s.strategy == "" {
		s.strategy = "one_for_one"
	}
	if s.strategy != "one_for_one" {
		return Nil, throwValue(Str("supervisor_start: strategy " + strconv.Quote(s.strategy) + " is not supported (one_for_one is)"))
	}
	kids, _ := d.Get("children")
	if kids.k != KindList {
		return Nil, throwValue(Str("supervisor_start: children must be a list"))
	}
	for i, k := range kids.r.(*List).items {
		if k.k != KindDict {
			return Nil, throwValue(Str(fmt.Sprintf("supervisor_start: child %d must be a dict", i)))
		}
		ch, err := parseChild(k.r.(*Dict), i)
		if err != nil {
			return Nil, err
		}
		s.children = append(s.children, ch)
	}
	s.mu.Lock()
	s.event("supervisor_started", "")
	s.mu.Unlock()
	for _, ch := range s.children {
		t, err := c.th.spawnTask(c.th.task.childID("supervisor"), ch.name, s.id, func(th *thread) (Value, error) {
			s.runChild(th, ch)
			return Nil, nil
		})
		if err != nil {
			return Nil, err
		}
		s.mu.Lock()
		ch.task = t
		s.mu.Unlock()
	}
	h := NewDict(3)
	h.Set("_type", Str("supervisor"))
	h.Set("id", Str(s.id))
	h.Set("name", Str(s.name))
	return DictValue(h), nil
}

// parseChild reads a child spec and its restart policy.
func parseChild(d *Dict, i int) (*supChild, error) {
	ch := &supChild{name: OptStr(d, "name"), kind: OptStr(d, "kind"), status: "running", mode: "on_failure", maxRestarts: 3, windowMs: 60_000}
	if ch.name == "" {
		ch.name = "child_" + strconv.Itoa(i)
	}
	fn, _ := d.Get("task")
	if fn.k != KindClosure && fn.k != KindBuiltin {
		return nil, throwValue(Str("supervisor_start: child " + strconv.Quote(ch.name) + " needs a task closure"))
	}
	ch.fn = fn
	r, _ := d.Get("restart")
	switch r.k {
	case KindNil:
	case KindString:
		ch.mode = r.r.(string)
	case KindDict:
		rd := r.r.(*Dict)
		if m := OptStr(rd, "mode"); m != "" {
			ch.mode = m
		}
		for k, dst := range map[string]*int64{"max_restarts": &ch.maxRestarts, "window_ms": &ch.windowMs, "backoff_ms": &ch.backoffMs, "circuit_open_ms": &ch.circuitMs} {
			if v, ok := rd.Get(k); ok {
				if ms, ok := DurationMillis(v); ok {
					*dst = ms
				} else if v.k == KindInt {
					*dst = v.AsInt()
				}
			}
		}
	default:
		return nil, throwValue(Str("supervisor_start: child " + strconv.Quote(ch.name) + ": restart must be a string or a dict"))
	}
	switch ch.mode {
	case "never", "on_failure", "always":
	default:
		return nil, throwValue(Str("supervisor_start: child " + strconv.Quote(ch.name) + ": restart mode " + strconv.Quote(ch.mode) + " is not never, on_failure or always"))
	}
	return ch, nil
}

// runChild runs one child until its policy ends it.
func (s *supervisor) runChild(th *thread, ch *supChild) {
	for attempt := int64(1); ; attempt++ {
		s.mu.Lock()
		if s.stopping {
			ch.status = "stopped"
			s.mu.Unlock()
			break
		}
		ch.status, ch.waitReason = "running", ""
		s.started++
		s.event("child_started", ch.name)
		s.mu.Unlock()
		ctx := NewDict(3)
		ctx.Set("supervisor", Str(s.name))
		ctx.Set("child", Str(ch.name))
		ctx.Set("attempt", Int(attempt))
		_, err := th.callValue(ch.fn, []Value{DictValue(ctx)})
		if err != nil && th.in.run.Err() != nil {
			return // the run itself stopped (a budget, a cancel): it reports
		}
		s.mu.Lock()
		if s.stopping {
			ch.status = "stopped"
			s.event("child_stopped", ch.name)
			s.mu.Unlock()
			break
		}
		if err == nil {
			ch.status = "stopped"
			s.event("child_completed", ch.name)
			s.mu.Unlock()
			break
		}
		s.failed++
		ch.lastError = supervisorErrorText(err)
		s.event("child_failed", ch.name)
		if ch.mode == "never" {
			ch.status = "failed"
			s.mu.Unlock()
			break
		}
		now := time.Now()
		if ch.windowMs > 0 {
			keep := ch.restarts[:0]
			for _, at := range ch.restarts {
				if now.Sub(at) < time.Duration(ch.windowMs)*time.Millisecond {
					keep = append(keep, at)
				}
			}
			ch.restarts = keep
		}
		wait := ch.backoffMs
		if int64(len(ch.restarts)) >= ch.maxRestarts {
			s.suppress++
			ch.status, ch.waitReason = "suppressed", "restart_cap_exceeded"
			s.event("child_suppressed", ch.name)
			if ch.circuitMs <= 0 {
				s.mu.Unlock()
				break
			}
			// Half-open after the circuit's time: one more attempt.
			ch.restarts, wait = nil, ch.circuitMs
		} else {
			ch.restarts = append(ch.restarts, now)
			ch.restartCount++
			s.restarted++
			ch.status = "backoff"
			s.event("child_restarted", ch.name)
		}
		s.mu.Unlock()
		if wait > 0 {
			var serr error
			th.block(func() { serr = th.in.host.Sleep(th.ctx, time.Duration(wait)*time.Millisecond) })
			if serr != nil {
				s.mu.Lock()
				if ch.status == "backoff" || s.stopping {
					ch.status = "stopped"
				}
				s.mu.Unlock()
				break
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status != "running" {
		return
	}
	for _, c := range s.children {
		if c.status == "running" || c.status == "backoff" {
			return
		}
	}
	s.status = "completed"
	s.event("supervisor_completed", "")
}

// event records an event; the caller holds s.mu.
func (s *supervisor) event(kind, child string) {
	e := NewDict(4)
	e.Set("kind", Str(kind))
	e.Set("supervisor", Str(s.name))
	if child != "" {
		e.Set("child", Str(child))
	}
	e.Set("at_ms", Int(time.Since(s.begun).Milliseconds()))
	s.events = append(s.events, DictValue(e))
}

// metrics is the supervisor's counters; the caller holds s.mu.
func (s *supervisor) metrics() Value {
	m := NewDict(4)
	m.Set("started", Int(s.started))
	m.Set("failed", Int(s.failed))
	m.Set("restarted", Int(s.restarted))
	m.Set("suppressed", Int(s.suppress))
	return DictValue(m)
}

// state is supervisor_state's dict.
func (s *supervisor) state() Value {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := NewDict(6)
	d.Set("id", Str(s.id))
	d.Set("name", Str(s.name))
	d.Set("strategy", Str(s.strategy))
	d.Set("status", Str(s.status))
	kids := make([]Value, len(s.children))
	for i, ch := range s.children {
		k := NewDict(6)
		k.Set("name", Str(ch.name))
		k.Set("kind", Str(ch.kind))
		k.Set("status", Str(ch.status))
		k.Set("restart_count", Int(ch.restartCount))
		if ch.waitReason != "" {
			k.Set("current_wait_reason", Str(ch.waitReason))
		} else {
			k.Set("current_wait_reason", Nil)
		}
		if ch.lastError != "" {
			k.Set("last_error", Str(ch.lastError))
		} else {
			k.Set("last_error", Nil)
		}
		kids[i] = DictValue(k)
	}
	d.Set("children", NewListValue(kids))
	d.Set("metrics", s.metrics())
	return DictValue(d)
}

// debugSupervisors is runtime_context().debug.supervisors: nil when the
// run started none.
func debugSupervisors(in *Interp) Value {
	all := supervisorsOf(in)
	all.mu.Lock()
	list := append([]*supervisor(nil), all.list...)
	all.mu.Unlock()
	if len(list) == 0 {
		return Nil
	}
	out := make([]Value, len(list))
	for i, s := range list {
		s.mu.Lock()
		d := NewDict(3)
		d.Set("id", Str(s.id))
		d.Set("name", Str(s.name))
		d.Set("status", Str(s.status))
		s.mu.Unlock()
		out[i] = DictValue(d)
	}
	return NewListValue(out)
}

// supervisorErrorText is a failed child's error as last_error shows it:
// a thrown value displayed, any other error's message.
func supervisorErrorText(err error) string {
	if e, ok := err.(*Error); ok && e.Thrown {
		return Display(e.Value)
	}
	return err.Error()
}
