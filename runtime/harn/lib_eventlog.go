package harn

import (
	"sync"
)

// The event_log namespace: an in-memory, per-run log of topics.
// event_log.emit appends {kind, payload, headers} to a topic and returns
// its id (1, 2, ... per topic); event_log.latest is a topic's last id;
// event_log.subscribe streams a topic's events after a cursor, then waits
// for new ones as they are emitted (a live stream never ends by itself).

type logEvent struct {
	id         int64
	kind       string
	payload    Value
	headers    *Dict
	occurredMs int64
}

type eventLog struct {
	mu     sync.Mutex
	topics map[string][]logEvent
	notify chan struct{} // closed and replaced on every append
}

func eventLogOf(c *Call) *eventLog {
	return c.th.in.State("event_log", func() any {
		return &eventLog{topics: map[string][]logEvent{}, notify: make(chan struct{})}
	}).(*eventLog)
}

func (e logEvent) value(topic string) Value {
	d := NewDict(7)
	d.Set("id", Int(e.id))
	d.Set("cursor", Int(e.id))
	d.Set("topic", Str(topic))
	d.Set("kind", Str(e.kind))
	d.Set("payload", share(e.payload))
	d.Set("headers", DictValue(e.headers.clone()))
	d.Set("occurred_at_ms", Int(e.occurredMs))
	return DictValue(d)
}

func topicArg(c *Call, v Value) (string, error) {
	if v.k != KindString {
		return "", typeError("%s: topic must be a string, got %s", c.Name, v.TypeName())
	}
	if v.r.(string) == "" {
		return "", runtimeError("event_log: invalid topic: the topic name is empty")
	}
	return v.r.(string), nil
}

func cursorArg(c *Call, v Value) (int64, error) {
	switch {
	case v.k == KindNil:
		return 0, nil
	case v.k == KindInt && int64(v.n) >= 0:
		return int64(v.n), nil
	}
	return 0, typeError("%s: from_cursor must be a non-negative int or nil, got %s", c.Name, v.TypeName())
}

func installEventlog(lib *Library) {
	lib.Builtin("event_log.emit", func(c *Call, args []Value) (Value, error) {
		topic, err := topicArg(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		kind := Arg(args, 1)
		if kind.k != KindString {
			return Nil, typeError("event_log.emit: kind must be a string, got %s", kind.TypeName())
		}
		headers := NewDict(0)
		switch h := Arg(args, 3); h.k {
		case KindNil:
		case KindDict:
			for _, k := range h.r.(*Dict).Keys() {
				v, _ := h.r.(*Dict).Get(k)
				if v.k != KindString {
					return Nil, typeError("event_log.emit: header '%s' must be a string, got %s", k, v.TypeName())
				}
				headers.Set(k, v)
			}
		default:
			return Nil, typeError("event_log.emit: headers must be a dict, got %s", h.TypeName())
		}
		now := c.th.in.host.Now().UnixMilli()
		if wall, _, ok := c.mockedNow(); ok {
			now = wall
		}
		log := eventLogOf(c)
		log.mu.Lock()
		defer log.mu.Unlock()
		events := log.topics[topic]
		e := logEvent{id: int64(len(events)) + 1, kind: kind.r.(string), payload: share(Arg(args, 2)), headers: headers, occurredMs: now}
		log.topics[topic] = append(events, e)
		close(log.notify)
		log.notify = make(chan struct{})
		return Int(e.id), nil
	})
	lib.Builtin("event_log.latest", func(c *Call, args []Value) (Value, error) {
		topic, err := topicArg(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		log := eventLogOf(c)
		log.mu.Lock()
		defer log.mu.Unlock()
		if n := len(log.topics[topic]); n > 0 {
			return Int(int64(n)), nil
		}
		return Nil, nil
	})
	lib.Builtin("event_log.subscribe", func(c *Call, args []Value) (Value, error) {
		topicV, cursorV := Arg(args, 0), Arg(args, 1)
		if topicV.k == KindDict {
			d := topicV.r.(*Dict)
			topicV, _ = d.Get("topic")
			cursorV = Nil
			for _, k := range []string{"from_cursor", "cursor", "from"} {
				if v, ok := d.Get(k); ok {
					cursorV = v
					break
				}
			}
		}
		topic, err := topicArg(c, topicV)
		if err != nil {
			return Nil, err
		}
		after, err := cursorArg(c, cursorV)
		if err != nil {
			return Nil, err
		}
		log := eventLogOf(c)
		g := &Generator{stream: true, started: true}
		g.native = func(th *thread) (Value, bool, error) {
			for {
				log.mu.Lock()
				events, wait := log.topics[topic], log.notify
				log.mu.Unlock()
				if after < int64(len(events)) {
					e := events[after]
					after++
					return e.value(topic), true, nil
				}
				if err := th.waitOn("an event on topic "+topic, wait); err != nil {
					return Nil, false, err
				}
			}
		}
		return Value{k: KindStream, r: g}, nil
	})
}
