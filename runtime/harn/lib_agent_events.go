package harn

import (
	"strings"
	"sync"
)

// The agent event bus: agent_subscribe(session_id, callback) registers a
// closure that receives each event of that session as it happens (a dict
// {type, session_id, ...}: turn_start, feedback_injected,
// tool_search_query, tool_search_result, transcript_compacted); a
// subscriber's error is reported on standard error and does not stop the
// agent. agent_inject_feedback(session_id, kind, content) queues a
// message the session's next turn receives as a <runtime_feedback> user
// message.

type feedbackItem struct{ kind, content string }

type agentBus struct {
	mu       sync.Mutex
	subs     map[string][]Value
	feedback map[string][]feedbackItem
}

func agentBusOf(c *Call) *agentBus {
	return c.th.in.State("agent_bus", func() any {
		return &agentBus{subs: map[string][]Value{}, feedback: map[string][]feedbackItem{}}
	}).(*agentBus)
}

// publishAgentEvent sends an event of type typ with fields to the
// session's subscribers, in the order they subscribed. Only the run's
// stops pass; a subscriber's own error is a warning.
func publishAgentEvent(c *Call, session, typ string, fields *Dict) error {
	if session == "" {
		return nil
	}
	b := agentBusOf(c)
	b.mu.Lock()
	subs := append([]Value(nil), b.subs[session]...)
	b.mu.Unlock()
	if len(subs) == 0 {
		return nil
	}
	for _, s := range subs {
		ev := NewDict(8)
		ev.Set("type", Str(typ))
		ev.Set("session_id", Str(session))
		if fields != nil {
			for _, k := range fields.Keys() {
				v, _ := fields.Get(k)
				ev.Set(k, share(v))
			}
		}
		if _, err := c.Invoke(s, DictValue(ev)); err != nil {
			if passes(err) {
				return err
			}
			_ = c.th.in.host.WriteStderr("warning: agent subscriber of session " + session + " failed on " + typ + ": " + asError(err).Message() + "\n")
		}
	}
	return nil
}

// drainFeedback takes the session's queued feedback, oldest first.
func drainFeedback(c *Call, session string) []feedbackItem {
	if session == "" {
		return nil
	}
	b := agentBusOf(c)
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.feedback[session]
	delete(b.feedback, session)
	return out
}

// runtimeFeedbackMessage is the user message that carries feedback.
func runtimeFeedbackMessage(kind, content string) Value {
	kind = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(kind)
	return messageValue("user", Str("<runtime_feedback kind=\""+kind+"\">\n"+strings.TrimSpace(content)+"\n</runtime_feedback>"))
}

func installAgentEvents(lib *Library) {
	lib.Builtin("agent_subscribe", func(c *Call, args []Value) (Value, error) {
		session := Arg(args, 0).AsString()
		if Arg(args, 0).k != KindString {
			return Nil, runtimeError("agent_subscribe(session_id, callback): session_id must be a string")
		}
		if len(args) < 2 {
			return Nil, runtimeError("agent_subscribe(session_id, callback): callback closure required")
		}
		if args[1].k != KindClosure {
			return Nil, runtimeError("agent_subscribe(session_id, callback): callback must be a closure")
		}
		b := agentBusOf(c)
		b.mu.Lock()
		b.subs[session] = append(b.subs[session], args[1])
		b.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("agent_inject_feedback", func(c *Call, args []Value) (Value, error) {
		const usage = "agent_inject_feedback(session_id, kind, content): "
		session := Arg(args, 0).AsString()
		if Arg(args, 0).k != KindString {
			return Nil, runtimeError(usage + "session_id must be a string")
		}
		if Arg(args, 1).k != KindString {
			return Nil, runtimeError(usage + "kind must be a string")
		}
		if Arg(args, 2).k != KindString {
			return Nil, runtimeError(usage + "content must be a string")
		}
		b := agentBusOf(c)
		b.mu.Lock()
		b.feedback[session] = append(b.feedback[session], feedbackItem{args[1].AsString(), args[2].AsString()})
		b.mu.Unlock()
		return Nil, nil
	})
}

// turnStart opens a loop turn: subscribers hear turn_start, then the
// session's queued feedback joins the conversation.
func (r *loopRun) turnStart() error {
	session := r.cfg.sessionID
	if err := publishAgentEvent(r.c, session, "turn_start", intDict("iteration", r.iterations)); err != nil {
		return err
	}
	for _, f := range drainFeedback(r.c, session) {
		r.messages = append(r.messages, runtimeFeedbackMessage(f.kind, f.content))
		if err := publishAgentEvent(r.c, session, "feedback_injected", strDict("kind", f.kind, "content", f.content)); err != nil {
			return err
		}
	}
	return nil
}

func intDict(key string, n int64) *Dict {
	d := NewDict(1)
	d.Set(key, Int(n))
	return d
}
