package harn

import (
	"sync"
)

// Agent sessions: named transcripts that outlive one agent_loop call, so
// a later loop (or a sub-agent, a workflow stage) with the same
// session_id continues the conversation. The store belongs to one run
// (Interp state), holds at most sessionCap sessions (the least recently
// used is evicted), and records lineage: a fork knows its parent, a
// parent its children, a fork_at where it branched. agent_loop pushes
// its session on the current-session stack while it runs, so a tool
// handler sees agent_session_current_id().

const sessionCap = 128

type agentSession struct {
	id       string
	messages []Value
	metadata Value
	parent   string
	children []string
	branchAt int // -1: not a fork_at branch
	touched  int64
}

type sessionStore struct {
	mu      sync.Mutex
	byID    map[string]*agentSession
	clock   int64
	current []string
}

func sessionsOf(c *Call) *sessionStore {
	return c.th.in.State("agent_sessions", func() any {
		return &sessionStore{byID: map[string]*agentSession{}}
	}).(*sessionStore)
}

func (s *sessionStore) touch(a *agentSession) { s.clock++; a.touched = s.clock }

// open returns the session id, creating the session when it is new;
// the caller holds s.mu.
func (s *sessionStore) open(id string) *agentSession {
	if a, ok := s.byID[id]; ok {
		s.touch(a)
		return a
	}
	if len(s.byID) >= sessionCap {
		var victim *agentSession
		for _, a := range s.byID {
			if victim == nil || a.touched < victim.touched {
				victim = a
			}
		}
		delete(s.byID, victim.id)
	}
	a := &agentSession{id: id, branchAt: -1}
	s.touch(a)
	s.byID[id] = a
	return a
}

// link records child as a fork of parent (moving it from a former
// parent); the caller holds s.mu.
func (s *sessionStore) link(parent, child string, branchAt int) {
	if parent == child {
		return
	}
	p, ch := s.open(parent), s.open(child)
	if ch.parent != "" && ch.parent != parent {
		if old, ok := s.byID[ch.parent]; ok {
			old.children = removeString(old.children, child)
		}
	}
	if !containsString(p.children, child) {
		p.children = append(p.children, child)
	}
	ch.parent = parent
	ch.branchAt = branchAt
	md := NewDict(1)
	if ch.metadata.k == KindDict {
		md = ch.metadata.r.(*Dict).clone()
	}
	md.Set("parent_session_id", Str(parent))
	ch.metadata = DictValue(md)
}

// fork copies src's messages into dst (a new id when empty) and links
// it; the caller holds s.mu.
func (s *sessionStore) fork(c *Call, src, dst string) (string, bool) {
	a, ok := s.byID[src]
	if !ok {
		return "", false
	}
	s.touch(a)
	if dst == "" {
		dst = newUUID(c)
	}
	msgs := append([]Value(nil), a.messages...)
	d := s.open(dst)
	d.messages = msgs
	s.link(src, dst, -1)
	return dst, true
}

func (a *agentSession) transcript(c *Call) Value {
	return transcriptParts{id: a.id, messages: a.messages, metadata: a.metadata}.build(c)
}

// setLineage sets parent_id (nil for a root) and child_ids on d.
func (a *agentSession) setLineage(d *Dict) {
	if a.parent != "" {
		d.Set("parent_id", Str(a.parent))
	} else {
		d.Set("parent_id", Nil)
	}
	kids := make([]Value, len(a.children))
	for i, k := range a.children {
		kids[i] = Str(k)
	}
	d.Set("child_ids", NewListValue(kids))
}

func (a *agentSession) snapshot(c *Call) Value {
	d := a.transcript(c).r.(*Dict)
	a.setLineage(d)
	if a.branchAt >= 0 {
		d.Set("branched_at_event_index", Int(int64(a.branchAt)))
	} else {
		d.Set("branched_at_event_index", Nil)
	}
	return DictValue(d)
}

// sessionMessages is a copy of a session's messages (nil when unknown).
func sessionMessages(c *Call, id string) []Value {
	s := sessionsOf(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.byID[id]; ok {
		return append([]Value(nil), a.messages...)
	}
	return nil
}

// sessionSetMessages replaces a session's messages, opening it if needed.
func sessionSetMessages(c *Call, id string, msgs []Value) {
	s := sessionsOf(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open(id).messages = append([]Value(nil), msgs...)
}

// sessionOpen opens (or creates) a session by id.
func sessionOpen(c *Call, id string) string {
	s := sessionsOf(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		id = newUUID(c)
	}
	s.open(id)
	return id
}

// enterSession pushes id as the current session; the returned function
// pops it.
func enterSession(c *Call, id string) func() {
	if id == "" {
		return func() {}
	}
	s := sessionsOf(c)
	s.mu.Lock()
	s.current = append(s.current, id)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		if n := len(s.current); n > 0 {
			s.current = s.current[:n-1]
		}
		s.mu.Unlock()
	}
}

func removeString(xs []string, x string) []string {
	out := xs[:0]
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sessionErr(msg string) error { return throwValue(Str(msg)) }

// sessionIDArg is the string argument i of fn, named name.
func sessionIDArg(args []Value, i int, fn, name string) (string, error) {
	if v := Arg(args, i); v.k == KindString {
		return v.AsString(), nil
	}
	return "", sessionErr(fn + ": `" + name + "` must be a string")
}

// optSessionIDArg is like sessionIDArg but nil (or absent) is "".
func optSessionIDArg(args []Value, i int, fn, name string) (string, error) {
	if v := Arg(args, i); v.k == KindNil {
		return "", nil
	}
	return sessionIDArg(args, i, fn, name)
}

// withSession runs f on a known session under the store's lock.
func withSession(c *Call, args []Value, fn string, f func(s *sessionStore, a *agentSession) (Value, error)) (Value, error) {
	id, err := sessionIDArg(args, 0, fn, "id")
	if err != nil {
		return Nil, err
	}
	s := sessionsOf(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	if !ok {
		return Nil, sessionErr(fn + ": unknown session id '" + id + "'")
	}
	s.touch(a)
	return f(s, a)
}

func installSessions(lib *Library) {
	lib.Builtin("agent_session_open", func(c *Call, args []Value) (Value, error) {
		id, err := optSessionIDArg(args, 0, "agent_session_open", "id")
		if err != nil {
			return Nil, err
		}
		return Str(sessionOpen(c, id)), nil
	})
	lib.Builtin("agent_session_exists", func(c *Call, args []Value) (Value, error) {
		id, err := sessionIDArg(args, 0, "agent_session_exists", "id")
		if err != nil {
			return Nil, err
		}
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		_, ok := s.byID[id]
		return Bool(ok), nil
	})
	lib.Builtin("agent_session_current_id", func(c *Call, args []Value) (Value, error) {
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		if n := len(s.current); n > 0 {
			return Str(s.current[n-1]), nil
		}
		return Nil, nil
	})
	lib.Builtin("agent_session_length", func(c *Call, args []Value) (Value, error) {
		return withSession(c, args, "agent_session_length", func(_ *sessionStore, a *agentSession) (Value, error) {
			return Int(int64(len(a.messages))), nil
		})
	})
	lib.Builtin("agent_session_snapshot", func(c *Call, args []Value) (Value, error) {
		id, err := sessionIDArg(args, 0, "agent_session_snapshot", "id")
		if err != nil {
			return Nil, err
		}
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		if a, ok := s.byID[id]; ok {
			return a.snapshot(c), nil
		}
		return Nil, nil
	})
	lib.Builtin("agent_session_ancestry", func(c *Call, args []Value) (Value, error) {
		id, err := sessionIDArg(args, 0, "agent_session_ancestry", "id")
		if err != nil {
			return Nil, err
		}
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		a, ok := s.byID[id]
		if !ok {
			return Nil, nil
		}
		root, seen := a, map[string]bool{a.id: true}
		for root.parent != "" && !seen[root.parent] {
			p, ok := s.byID[root.parent]
			if !ok {
				break
			}
			seen[p.id] = true
			root = p
		}
		out := NewDict(3)
		a.setLineage(out)
		out.Set("root_id", Str(root.id))
		return DictValue(out), nil
	})
	lib.Builtin("agent_session_inject", func(c *Call, args []Value) (Value, error) {
		return withSession(c, args, "agent_session_inject", func(_ *sessionStore, a *agentSession) (Value, error) {
			if len(args) < 2 {
				return Nil, sessionErr("agent_session_inject: `message` required")
			}
			m := args[1]
			if m.k != KindDict {
				return Nil, sessionErr("agent_session_inject: message must be a dict")
			}
			if r, ok := m.r.(*Dict).Get("role"); !ok || r.k != KindString {
				return Nil, sessionErr("agent_session_inject: message must have a string `role` (user|assistant|tool_result|system)")
			}
			a.messages = append(a.messages, m)
			return Nil, nil
		})
	})
	lib.Builtin("agent_session_reset", func(c *Call, args []Value) (Value, error) {
		return withSession(c, args, "agent_session_reset", func(_ *sessionStore, a *agentSession) (Value, error) {
			a.messages = nil
			return Nil, nil
		})
	})
	lib.Builtin("agent_session_close", func(c *Call, args []Value) (Value, error) {
		return withSession(c, args, "agent_session_close", func(s *sessionStore, a *agentSession) (Value, error) {
			delete(s.byID, a.id)
			return Nil, nil
		})
	})
	lib.Builtin("agent_session_trim", func(c *Call, args []Value) (Value, error) {
		return withSession(c, args, "agent_session_trim", func(_ *sessionStore, a *agentSession) (Value, error) {
			k := Arg(args, 1)
			if k.k != KindInt {
				return Nil, sessionErr("agent_session_trim: `keep_last` must be an int")
			}
			n := k.AsInt()
			if n < 0 {
				return Nil, sessionErr("agent_session_trim: `keep_last` must be >= 0")
			}
			if int64(len(a.messages)) > n {
				a.messages = append([]Value(nil), a.messages[int64(len(a.messages))-n:]...)
			}
			return Int(int64(len(a.messages))), nil
		})
	})
	lib.Builtin("agent_session_fork", func(c *Call, args []Value) (Value, error) {
		src, err := sessionIDArg(args, 0, "agent_session_fork", "src")
		if err != nil {
			return Nil, err
		}
		dst, err := optSessionIDArg(args, 1, "agent_session_fork", "dst")
		if err != nil {
			return Nil, err
		}
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		id, ok := s.fork(c, src, dst)
		if !ok {
			return Nil, sessionErr("agent_session_fork: unknown session id '" + src + "'")
		}
		return Str(id), nil
	})
	lib.Builtin("agent_session_fork_at", func(c *Call, args []Value) (Value, error) {
		src, err := sessionIDArg(args, 0, "agent_session_fork_at", "src")
		if err != nil {
			return Nil, err
		}
		k := Arg(args, 1)
		if k.k != KindInt {
			return Nil, sessionErr("agent_session_fork_at: `keep_first` must be an int")
		}
		keep := int(k.AsInt())
		if keep < 0 {
			return Nil, sessionErr("agent_session_fork_at: `keep_first` must be >= 0")
		}
		dst, err := optSessionIDArg(args, 2, "agent_session_fork_at", "dst")
		if err != nil {
			return Nil, err
		}
		s := sessionsOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		a, ok := s.byID[src]
		if !ok {
			return Nil, sessionErr("agent_session_fork_at: unknown session id '" + src + "'")
		}
		// Messages map one-to-one onto message events, so the branch point
		// is the number of messages kept (clamped to what there is).
		branch := keep
		if branch > len(a.messages) {
			branch = len(a.messages)
		}
		id, _ := s.fork(c, src, dst)
		child := s.byID[id]
		child.branchAt = branch
		if keep < len(child.messages) {
			child.messages = child.messages[:keep]
		}
		return Str(id), nil
	})
}
