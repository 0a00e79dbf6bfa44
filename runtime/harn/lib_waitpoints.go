package harn

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Waitpoints: named one-shot signals tasks wait on. waitpoint_create(id |
// {id, by, metadata}) opens one (an id already open is returned as is);
// waitpoint_complete(id, {by}) and waitpoint_cancel(id, {by, reason})
// close it and wake its waiters; waitpoint_wait(id | ids, {timeout,
// wait_id}) waits until every listed waitpoint is completed, or one is
// cancelled, or the timeout passes, and returns {wait_id, waitpoint_ids,
// status: completed | cancelled | timed_out, started_at, resolved_at,
// waitpoints, cancelled_waitpoint_id, trace_id, replay_of_event_id,
// reason}. std/waitpoint's create, complete(wp, value), cancel and
// wait(wp | wps, {timeout}) are the same waitpoints carrying a value:
// wait returns the completed waitpoint(s) and throws a
// WaitpointTimeoutError or WaitpointCancelledError dict otherwise. The
// waitpoints are the run's, in memory.
//
// std/monitors' wait_for({wait_id, timeout, poll_interval, source: {label,
// poll}, condition}) polls a source until the condition holds or the
// timeout passes (monitor_wait_for_native).

type waitpoint struct {
	id, status, createdAt, createdBy, doneAt, doneBy, reason string
	value, metadata                                          Value
	done                                                     chan struct{}
}

type waitpointStore struct {
	mu     sync.Mutex
	points map[string]*waitpoint
	seq    int
}

func waitpointsOf(c *Call) *waitpointStore {
	return c.th.in.State("waitpoints", func() any { return &waitpointStore{points: map[string]*waitpoint{}} }).(*waitpointStore)
}

func nowText(c *Call) string { return c.th.in.host.Now().UTC().Format(time.RFC3339Nano) }

func (s *waitpointStore) create(c *Call, id, by string, meta Value) *waitpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		s.seq++
		id = fmt.Sprintf("waitpoint_%d_%x", s.seq, c.th.in.host.Uint64()&0xffffffff)
	}
	if w, ok := s.points[id]; ok {
		return w
	}
	if meta.k == KindNil {
		meta = DictValue(NewDict(0))
	}
	w := &waitpoint{id: id, status: "open", createdAt: nowText(c), createdBy: by, metadata: meta, done: make(chan struct{})}
	s.points[id] = w
	return w
}

// finish closes a waitpoint (creating it when unknown) as completed or
// cancelled; closing a closed one changes nothing.
func (s *waitpointStore) finish(c *Call, id, status, by, reason string, value Value) *waitpoint {
	w := s.create(c, id, "", Nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.status != "open" {
		return w
	}
	w.status, w.doneAt, w.doneBy, w.reason, w.value = status, nowText(c), by, reason, value
	close(w.done)
	return w
}

func optText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// handle is the waitpoints-API view; withValue adds std/waitpoint's value.
func (w *waitpoint) handle(withValue bool) Value {
	m := map[string]any{"id": w.id, "status": w.status, "created_at": w.createdAt, "created_by": optText(w.createdBy),
		"completed_at": nil, "completed_by": nil, "cancelled_at": nil, "cancelled_by": nil, "reason": optText(w.reason),
		"metadata": w.metadata}
	switch w.status {
	case "completed":
		m["completed_at"], m["completed_by"] = w.doneAt, optText(w.doneBy)
	case "cancelled":
		m["cancelled_at"], m["cancelled_by"] = w.doneAt, optText(w.doneBy)
	}
	if withValue {
		m["value"] = w.value
	}
	return goValue(m)
}

// waitpointIDs reads an id, a handle, or a list of either.
func waitpointIDs(v Value) ([]string, bool, error) {
	one := func(x Value) (string, error) {
		switch x.k {
		case KindString:
			return x.AsString(), nil
		case KindDict:
			if id := OptStr(x.AsDict(), "id"); id != "" {
				return id, nil
			}
		}
		return "", plainError("waitpoint: expected a waitpoint id or handle, got " + x.TypeName())
	}
	if v.k == KindList {
		var ids []string
		for _, x := range v.AsList().Items() {
			id, err := one(x)
			if err != nil {
				return nil, true, err
			}
			ids = append(ids, id)
		}
		return ids, true, nil
	}
	id, err := one(v)
	return []string{id}, false, err
}

type waitOutcome struct {
	status, cancelled string
	points            []*waitpoint
	started, resolved string
}

// wait blocks until every waitpoint is completed, one is cancelled, or
// the timeout (ms; negative: none) passes.
func (s *waitpointStore) wait(c *Call, ids []string, timeoutMs int64) (*waitOutcome, error) {
	out := &waitOutcome{started: nowText(c)}
	for _, id := range ids {
		out.points = append(out.points, s.create(c, id, "", Nil))
	}
	var deadline <-chan time.Time
	if timeoutMs >= 0 {
		t := time.NewTimer(time.Duration(timeoutMs) * time.Millisecond)
		defer t.Stop()
		deadline = t.C
	}
	ctx := c.th.ctx
	for _, w := range out.points {
		done := false
		select {
		case <-w.done:
			done = true
		default:
		}
		if !done {
			timedOut, stopped := false, false
			f := func() {
				select {
				case <-w.done:
				case <-deadline:
					timedOut = true
				case <-ctx.Done():
					stopped = true
				}
			}
			if deadline != nil {
				c.th.block(f)
			} else {
				c.th.wait("waitpoint "+w.id, f)
			}
			if stopped {
				if err := c.th.checkLimits(); err != nil {
					return nil, err
				}
				return nil, plainError("Deadline exceeded")
			}
			if timedOut {
				out.status = "timed_out"
				break
			}
		}
		s.mu.Lock()
		st := w.status
		s.mu.Unlock()
		if st == "cancelled" {
			out.status, out.cancelled = "cancelled", w.id
			break
		}
	}
	if out.status == "" {
		out.status = "completed"
	}
	out.resolved = nowText(c)
	return out, nil
}

func waitOptions(v Value) (timeoutMs int64, waitID string) {
	timeoutMs = -1
	if v.k == KindDict {
		d := v.AsDict()
		if t, ok := d.Get("timeout"); ok && t.k != KindNil {
			if ms, ok := DurationMillis(t); ok {
				timeoutMs = ms
			}
		}
		waitID = OptStr(d, "wait_id")
	}
	return
}

func signalOptions(v Value) (by, reason string, meta Value) {
	meta = Nil
	if v.k == KindDict {
		d := v.AsDict()
		by, reason = OptStr(d, "by"), OptStr(d, "reason")
		meta, _ = d.Get("metadata")
	}
	return
}

func installWaitpoints(lib *Library) {
	createFn := func(withValue bool) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			a := Arg(args, 0)
			id, by, meta := "", "", Nil
			switch a.k {
			case KindString:
				id = a.AsString()
			case KindDict:
				id, by = OptStr(a.AsDict(), "id"), OptStr(a.AsDict(), "by")
				meta, _ = a.AsDict().Get("metadata")
			case KindNil:
			default:
				return Nil, plainError("waitpoint_create: expected an id or an options dict, got " + a.TypeName())
			}
			return waitpointsOf(c).create(c, id, by, meta).handle(withValue), nil
		}
	}
	lib.Builtin("waitpoint_create", createFn(false))
	lib.Builtin("__waitpoint_create", createFn(true))
	lib.Builtin("waitpoint_complete", func(c *Call, args []Value) (Value, error) {
		ids, _, err := waitpointIDs(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		by, _, _ := signalOptions(Arg(args, 1))
		return waitpointsOf(c).finish(c, ids[0], "completed", by, "", Nil).handle(false), nil
	})
	lib.Builtin("__waitpoint_complete", func(c *Call, args []Value) (Value, error) {
		ids, _, err := waitpointIDs(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		by, _, _ := signalOptions(Arg(args, 2))
		return waitpointsOf(c).finish(c, ids[0], "completed", by, "", Arg(args, 1)).handle(true), nil
	})
	cancel := func(withValue bool) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			ids, _, err := waitpointIDs(Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			by, reason, _ := signalOptions(Arg(args, 1))
			return waitpointsOf(c).finish(c, ids[0], "cancelled", by, reason, Nil).handle(withValue), nil
		}
	}
	lib.Builtin("waitpoint_cancel", cancel(false))
	lib.Builtin("__waitpoint_cancel", cancel(true))
	lib.Builtin("waitpoint_wait", func(c *Call, args []Value) (Value, error) {
		ids, _, err := waitpointIDs(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		timeout, waitID := waitOptions(Arg(args, 1))
		if waitID == "" {
			waitID = "wait_" + strings.Join(ids, "+")
		}
		out, err := waitpointsOf(c).wait(c, ids, timeout)
		if err != nil {
			return Nil, err
		}
		handles := make([]Value, len(out.points))
		for i, w := range out.points {
			handles[i] = w.handle(false)
		}
		var reason any
		switch out.status {
		case "timed_out":
			reason = fmt.Sprintf("waitpoint wait %s timed out after %dms", waitID, timeout)
		case "cancelled":
			for _, w := range out.points {
				if w.id == out.cancelled && w.reason != "" {
					reason = w.reason
				}
			}
		}
		return goValue(map[string]any{"wait_id": waitID, "waitpoint_ids": ids, "status": out.status,
			"started_at": out.started, "resolved_at": out.resolved, "waitpoints": NewListValue(handles),
			"cancelled_waitpoint_id": optText(out.cancelled), "trace_id": nil, "replay_of_event_id": nil, "reason": reason}), nil
	})
	stdWait := func(c *Call, args []Value) (Value, error) {
		ids, many, err := waitpointIDs(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		timeout, _ := waitOptions(Arg(args, 1))
		waitID := "wait_" + strings.Join(ids, "+")
		out, err := waitpointsOf(c).wait(c, ids, timeout)
		if err != nil {
			return Nil, err
		}
		switch out.status {
		case "timed_out":
			return Nil, throwValue(goValue(map[string]any{"name": "WaitpointTimeoutError", "category": "timeout",
				"message": fmt.Sprintf("waitpoint wait %s timed out after %dms", waitID, timeout), "wait_id": waitID}))
		case "cancelled":
			var reason any
			for _, w := range out.points {
				if w.id == out.cancelled {
					reason = optText(w.reason)
				}
			}
			return Nil, throwValue(goValue(map[string]any{"name": "WaitpointCancelledError", "category": "cancelled",
				"message": "waitpoint " + out.cancelled + " was cancelled", "wait_id": waitID, "waitpoint_ids": ids, "reason": reason}))
		}
		if !many {
			return out.points[0].handle(true), nil
		}
		hs := make([]Value, len(out.points))
		for i, w := range out.points {
			hs[i] = w.handle(true)
		}
		return NewListValue(hs), nil
	}
	lib.Builtin("__waitpoint_wait", stdWait)
	lookup := func(name string) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			b, _ := c.th.in.builtin(name)
			return b.Fn(c, args)
		}
	}
	lib.StdModule("std/waitpoint", map[string]func(c *Call, args []Value) (Value, error){
		"create": lookup("__waitpoint_create"), "complete": lookup("__waitpoint_complete"),
		"cancel": lookup("__waitpoint_cancel"), "wait": stdWait,
	})
	lib.StdModule("std/waitpoints", map[string]func(c *Call, args []Value) (Value, error){
		"waitpoint_create": lookup("waitpoint_create"), "waitpoint_complete": lookup("waitpoint_complete"),
		"waitpoint_cancel": lookup("waitpoint_cancel"), "waitpoint_wait": lookup("waitpoint_wait"),
	})
	lib.Builtin("monitor_wait_for_native", monitorWaitFor)
	lib.StdModule("std/monitors", map[string]func(c *Call, args []Value) (Value, error){"wait_for": monitorWaitFor})
}

// monitorWaitFor polls options.source.poll({wait_id, poll_count,
// last_push_event}) until options.condition(state) is truthy or the
// timeout has passed, sleeping poll_interval between polls.
func monitorWaitFor(c *Call, args []Value) (Value, error) {
	o := Arg(args, 0)
	if o.k != KindDict {
		return Nil, plainError("wait_for: expected an options dict")
	}
	d := o.AsDict()
	src, _ := d.Get("source")
	cond, _ := d.Get("condition")
	if src.k != KindDict {
		return Nil, plainError("wait_for: `source` must be a dict with a `poll` function")
	}
	poll, _ := src.AsDict().Get("poll")
	if poll.k != KindClosure && poll.k != KindBuiltin {
		return Nil, plainError("wait_for: `source.poll` must be a function")
	}
	if cond.k != KindClosure && cond.k != KindBuiltin {
		return Nil, plainError("wait_for: `condition` must be a function")
	}
	timeoutMs, waitID := waitOptions(o)
	if waitID == "" {
		waitID = fmt.Sprintf("monitor_%x", c.th.in.host.Uint64()&0xffffffff)
	}
	interval := int64(1000)
	if v, ok := d.Get("poll_interval"); ok {
		if ms, ok := DurationMillis(v); ok && ms > 0 {
			interval = ms
		}
	}
	started := nowText(c)
	start := c.th.in.host.Monotonic()
	sleep, _ := c.th.in.builtin("sleep")
	var state, value Value
	status := ""
	polls := 0
	for {
		polls++
		ctx := goValue(map[string]any{"wait_id": waitID, "poll_count": polls, "last_push_event": nil})
		var err error
		if state, err = c.Invoke(poll, ctx); err != nil {
			return Nil, err
		}
		if value, err = c.Invoke(cond, state); err != nil {
			return Nil, err
		}
		if value.Truthy() {
			status = "matched"
			break
		}
		elapsed := (c.th.in.host.Monotonic() - start).Milliseconds()
		if timeoutMs >= 0 && elapsed+interval > timeoutMs {
			status = "timed_out"
			break
		}
		if _, err := sleep.Fn(c, []Value{DurationValue(interval)}); err != nil {
			return Nil, err
		}
	}
	var reason any
	if status == "timed_out" {
		reason = fmt.Sprintf("condition not met within %dms after %d polls", timeoutMs, polls)
	}
	label, _ := src.AsDict().Get("label")
	return goValue(map[string]any{"wait_id": waitID, "status": status, "source_label": label, "started_at": started,
		"resolved_at": nowText(c), "state": state, "condition_value": value, "poll_count": polls, "push_wake_count": 0,
		"trace_id": nil, "replay_of_event_id": nil, "reason": reason}), nil
}
