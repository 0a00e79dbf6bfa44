package harn

import (
	"sync"
	"time"
)

// Workflow messages: a mailbox and query surface per workflow id.
// workflow.signal and workflow.update enqueue messages that
// workflow.receive takes in order; an update waits until
// workflow.respond_update answers its request id (or its timeout_ms
// passes). publish_query/query keep the last published value per name;
// pause/resume flip the paused flag and enqueue a control message;
// continue_as_new bumps the generation and drops pending update
// responses. The state lives for the run (upstream keeps it in
// .harn/workflows/<id>/state.json; this runtime does not persist it yet).

// wfMailbox is one workflow's message state.
type wfMailbox struct {
	id         string
	generation int64
	paused     bool
	pending    []Value
	queries    *Dict
	waiting    map[string]chan Value // update request id -> its response
}

// wfMessages are the run's mailboxes by workflow id.
type wfMessages struct {
	mu    sync.Mutex
	boxes map[string]*wfMailbox
}

func wfMessagesOf(c *Call) *wfMessages {
	return c.th.in.State("workflow_messages", func() any { return &wfMessages{boxes: map[string]*wfMailbox{}} }).(*wfMessages)
}

// wfTarget is the workflow id a target names: a string, or a dict with
// workflow_id or workflow.
func wfTarget(fn string, v Value) (string, error) {
	switch v.k {
	case KindString:
		if v.AsString() != "" {
			return v.AsString(), nil
		}
	case KindDict:
		d := v.r.(*Dict)
		if id := OptStr(d, "workflow_id"); id != "" {
			return id, nil
		}
		if w, ok := d.Get("workflow"); ok {
			if w.k == KindString && w.AsString() != "" {
				return w.AsString(), nil
			}
			if w.k == KindDict {
				if id := OptStr(w.r.(*Dict), "id"); id != "" {
					return id, nil
				}
			}
		}
	}
	return "", throwValue(Str(fn + ": target must be a workflow id or a dict with workflow_id"))
}

// box is the mailbox of a target, made on first use; the caller holds mu.
func (m *wfMessages) box(id string) *wfMailbox {
	b := m.boxes[id]
	if b == nil {
		b = &wfMailbox{id: id, generation: 1, queries: NewDict(0), waiting: map[string]chan Value{}}
		m.boxes[id] = b
	}
	return b
}

// status describes a mailbox.
func (b *wfMailbox) status() *Dict {
	return wfDict("workflow_id", Str(b.id), "generation", Int(b.generation), "paused", Bool(b.paused),
		"pending_count", Int(int64(len(b.pending))), "query_count", Int(int64(b.queries.Len())),
		"pending_update_count", Int(int64(len(b.waiting))))
}

// enqueue adds a message and returns it.
func (b *wfMailbox) enqueue(c *Call, kind, name string, payload Value, extra ...any) Value {
	msg := wfDict(append([]any{"id", Str("msg_" + newUUID(c)), "kind", Str(kind), "name", Str(name),
		"payload", payload, "workflow_id", Str(b.id), "generation", Int(b.generation), "created_at", Str(nowRFC3339(c))}, extra...)...)
	b.pending = append(b.pending, DictValue(msg))
	return DictValue(msg)
}

// withBox runs f on the target's mailbox under the lock.
func withBox(c *Call, fn string, target Value, f func(b *wfMailbox) (Value, error)) (Value, error) {
	id, err := wfTarget(fn, target)
	if err != nil {
		return Nil, err
	}
	m := wfMessagesOf(c)
	m.mu.Lock()
	defer m.mu.Unlock()
	return f(m.box(id))
}

func installWorkflowMessages(lib *Library) {
	lib.Builtin("workflow.signal", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.signal", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			msg := b.enqueue(c, "signal", Display(Arg(args, 1)), Arg(args, 2))
			return DictValue(wfDict("workflow_id", Str(b.id), "message", msg, "status", DictValue(b.status()))), nil
		})
	})
	lib.Builtin("workflow.receive", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.receive", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			if len(b.pending) == 0 {
				return Nil, nil
			}
			msg := b.pending[0]
			b.pending = b.pending[1:]
			return msg, nil
		})
	})
	lib.Builtin("workflow.publish_query", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.publish_query", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			b.queries.Set(Display(Arg(args, 1)), Arg(args, 2))
			return DictValue(b.status()), nil
		})
	})
	lib.Builtin("workflow.query", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.query", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			v, _ := b.queries.Get(Display(Arg(args, 1)))
			return v, nil
		})
	})
	lib.Builtin("workflow.update", func(c *Call, args []Value) (Value, error) {
		timeoutMs := int64(-1)
		if o := wfCeiling(Arg(args, 3)); o != nil {
			if n := OptInt(o, "timeout_ms"); n != nil {
				timeoutMs = *n
			}
		}
		var ch chan Value
		var reqID string
		_, err := withBox(c, "workflow.update", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			reqID = "update_" + newUUID(c)
			ch = make(chan Value, 1)
			b.waiting[reqID] = ch
			b.enqueue(c, "update", Display(Arg(args, 1)), Arg(args, 2), "request_id", Str(reqID))
			return Nil, nil
		})
		if err != nil {
			return Nil, err
		}
		var v Value
		got, stopped := false, false
		ctx := c.th.ctx
		if timeoutMs >= 0 {
			t := time.NewTimer(time.Duration(timeoutMs) * time.Millisecond)
			defer t.Stop()
			c.th.block(func() {
				select {
				case v = <-ch:
					got = true
				case <-t.C:
				case <-ctx.Done():
					stopped = true
				}
			})
		} else {
			c.th.wait("workflow update "+reqID, func() {
				select {
				case v = <-ch:
					got = true
				case <-ctx.Done():
					stopped = true
				}
			})
		}
		if stopped {
			if err := c.th.checkLimits(); err != nil {
				return Nil, err
			}
			return Nil, plainError("Deadline exceeded")
		}
		if !got {
			withBox(c, "workflow.update", Arg(args, 0), func(b *wfMailbox) (Value, error) {
				delete(b.waiting, reqID)
				return Nil, nil
			})
			return Nil, throwValue(Str("workflow.update: timed out waiting for a response to " + reqID))
		}
		return v, nil
	})
	lib.Builtin("workflow.respond_update", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.respond_update", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			id := Display(Arg(args, 1))
			ch, ok := b.waiting[id]
			if ok {
				delete(b.waiting, id)
				ch <- Arg(args, 2)
			}
			return DictValue(wfDict("workflow_id", Str(b.id), "request_id", Str(id), "name", Arg(args, 3),
				"delivered", Bool(ok), "status", DictValue(b.status()))), nil
		})
	})
	control := func(fn, name string, paused bool) {
		lib.Builtin(fn, func(c *Call, args []Value) (Value, error) {
			return withBox(c, fn, Arg(args, 0), func(b *wfMailbox) (Value, error) {
				b.paused = paused
				b.enqueue(c, "control", name, Nil)
				return DictValue(b.status()), nil
			})
		})
	}
	control("workflow.pause", "pause", true)
	control("workflow.resume", "resume", false)
	lib.Builtin("workflow.status", func(c *Call, args []Value) (Value, error) {
		return withBox(c, "workflow.status", Arg(args, 0), func(b *wfMailbox) (Value, error) {
			return DictValue(b.status()), nil
		})
	})
	next := func(fn string) {
		lib.Builtin(fn, func(c *Call, args []Value) (Value, error) {
			return withBox(c, fn, Arg(args, 0), func(b *wfMailbox) (Value, error) {
				b.generation++
				b.waiting = map[string]chan Value{}
				return DictValue(b.status()), nil
			})
		})
	}
	next("workflow.continue_as_new")
	next("continue_as_new")
}
