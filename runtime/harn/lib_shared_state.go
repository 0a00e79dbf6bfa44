package harn

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// The shared-state family: versioned cells (shared_cell, shared_get,
// shared_set, shared_snapshot, shared_cas), versioned maps (shared_map and
// its get/set/delete/snapshot/cas/entries), counters for both
// (shared_metrics), named actor mailboxes (mailbox_open, mailbox_send,
// mailbox_receive, mailbox_try_receive, mailbox_close, mailbox_lookup,
// mailbox_metrics) and channel_select over several channels.
//
// A handle is a dict {_type, scope, key}; scope is the scope's name and
// the id it resolved to when the handle was opened ("task_group:task_root"),
// so tasks started later (parallel branches, spawned workers) reach the
// same state through the handle. State lives in memory for the run only.

type sharedMetrics struct {
	reads, writes, casOK, casFail, stale int64
}

type sharedCell struct {
	value   Value
	version int64
	m       sharedMetrics
}

type sharedMap struct {
	entries map[string]Value
	version int64
	m       sharedMetrics
}

type mailbox struct {
	ch                           *Channel
	capacity                     int
	sent, received, failed, gone int64
}

type sharedState struct {
	mu        sync.Mutex
	cells     map[string]*sharedCell
	maps      map[string]*sharedMap
	mailboxes map[string]*mailbox
	// byName finds a mailbox by its bare name for mailbox_send("name").
	byName map[string]string
}

func sharedOf(in *Interp) *sharedState {
	return in.State("shared_state", func() any {
		return &sharedState{cells: map[string]*sharedCell{}, maps: map[string]*sharedMap{},
			mailboxes: map[string]*mailbox{}, byName: map[string]string{}}
	}).(*sharedState)
}

// sharedScope resolves the scope named in opts for the calling task: task
// scopes to the task itself, tenant to the tenant_id option, and every
// other scope (task_group, workflow_run, agent_session, process) to the
// run's root, which is where a program's tasks meet.
func sharedScope(c *Call, opts *Dict) (string, error) {
	scope := dictString(opts, "scope")
	switch scope {
	case "":
		scope = "task_group"
	case "task", "task_local":
		return scope + ":" + c.th.task.id, nil
	case "tenant":
		id := dictString(opts, "tenant_id")
		if id == "" {
			return "", runtimeError("%s: tenant scope requires tenant_id in options", c.Name)
		}
		return scope + ":" + id, nil
	case "task_group", "workflow", "workflow_run", "run", "agent_session", "session", "process", "root_task":
	default:
		return "", runtimeError("%s: unknown scope '%s'", c.Name, scope)
	}
	return scope + ":task_root", nil
}

func sharedHandle(kind, scope, key string) Value {
	d := NewDict(3)
	d.Set("_type", Str(kind))
	d.Set("scope", Str(scope))
	d.Set("key", Str(key))
	return DictValue(d)
}

// handleID reads a handle of kind back to its state key.
func handleID(c *Call, v Value, kind string) (string, error) {
	d := v.AsDict()
	if v.k != KindDict || dictString(d, "_type") != kind {
		return "", typeError("%s: argument 1 must be a %s handle, got %s", c.Name, kind, v.TypeName())
	}
	return dictString(d, "scope") + "/" + dictString(d, "key"), nil
}

// openScope reads the options of an open call (a dict, or a bare key)
// and the scope they resolve to.
func openScope(c *Call, args []Value) (*Dict, string, error) {
	v := Arg(args, 0)
	var opts *Dict
	switch v.k {
	case KindDict:
		opts = v.AsDict()
	case KindString:
		opts = NewDict(1)
		opts.Set("key", v)
	default:
		return nil, "", typeError("%s: argument 1 must be an options dict, got %s", c.Name, v.TypeName())
	}
	scope, err := sharedScope(c, opts)
	return opts, scope, err
}

func snapshotValue(v Value, version int64) Value {
	d := NewDict(3)
	d.Set("_type", Str("shared_snapshot"))
	d.Set("value", v)
	d.Set("version", Int(version))
	return DictValue(d)
}

// expected splits a CAS expectation: a snapshot carries the value and the
// version it was read at; any other value is compared by value alone.
func expected(v Value) (Value, int64, bool) {
	d := v.AsDict()
	if v.k != KindDict || dictString(d, "_type") != "shared_snapshot" {
		return v, 0, false
	}
	val, _ := d.Get("value")
	ver, ok := d.Get("version")
	if !ok || ver.k != KindInt || ver.AsInt() < 0 {
		return val, 0, false
	}
	return val, ver.AsInt(), true
}

// cas replaces *cur with next when it matches want (and, for a snapshot,
// the version), counting the outcome.
func cas(cur *Value, version *int64, m *sharedMetrics, want, next Value) bool {
	val, ver, versioned := expected(want)
	if (!versioned || ver == *version) && Equal(*cur, val) {
		*cur = share(next)
		*version++
		m.writes++
		m.casOK++
		return true
	}
	m.casFail++
	if versioned && ver != *version {
		m.stale++
	}
	return false
}

func (m sharedMetrics) value(version int64) *Dict {
	d := NewDict(6)
	d.Set("version", Int(version))
	d.Set("read_count", Int(m.reads))
	d.Set("write_count", Int(m.writes))
	d.Set("cas_success_count", Int(m.casOK))
	d.Set("cas_failure_count", Int(m.casFail))
	d.Set("stale_read_count", Int(m.stale))
	return d
}

func (mb *mailbox) metrics() *Dict {
	d := NewDict(6)
	mb.ch.mu.Lock()
	depth, closed := len(mb.ch.buf), mb.ch.closed
	mb.ch.mu.Unlock()
	d.Set("capacity", Int(int64(mb.capacity)))
	d.Set("depth", Int(int64(depth)))
	d.Set("sent_count", Int(mb.sent))
	d.Set("received_count", Int(mb.received))
	d.Set("failed_send_count", Int(mb.failed))
	d.Set("closed", Bool(closed))
	return d
}

// mailboxTarget finds the mailbox a target names: a mailbox handle or a
// bare name (the latest mailbox opened with it).
func (st *sharedState) mailboxTarget(v Value) (*mailbox, string) {
	id := ""
	switch {
	case v.k == KindString:
		id = st.byName[v.AsString()]
	case v.k == KindDict && dictString(v.AsDict(), "_type") == "mailbox":
		id = dictString(v.AsDict(), "scope") + "/" + dictString(v.AsDict(), "key")
	}
	return st.mailboxes[id], id
}

func installSharedState(lib *Library) {
	open := func(kind string) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			opts, scope, err := openScope(c, args)
			if err != nil {
				return Nil, err
			}
			key := dictString(opts, "key")
			if key == "" {
				key = "default"
			}
			st := sharedOf(c.th.in)
			st.mu.Lock()
			defer st.mu.Unlock()
			id := scope + "/" + key
			initial, _ := opts.Get("initial")
			if kind == "shared_cell" {
				if st.cells[id] == nil {
					st.cells[id] = &sharedCell{value: share(initial)}
				}
			} else if st.maps[id] == nil {
				m := &sharedMap{entries: map[string]Value{}}
				if d := initial.AsDict(); initial.k == KindDict {
					for _, k := range d.Keys() {
						x, _ := d.Get(k)
						m.entries[k] = share(x)
					}
				}
				st.maps[id] = m
			}
			return sharedHandle(kind, scope, key), nil
		}
	}
	lib.Builtin("shared_cell", open("shared_cell"))
	lib.Builtin("shared_map", open("shared_map"))
	cell := func(c *Call, args []Value, fn func(*sharedCell) Value) (Value, error) {
		id, err := handleID(c, Arg(args, 0), "shared_cell")
		if err != nil {
			return Nil, err
		}
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		sc := st.cells[id]
		if sc == nil {
			sc = &sharedCell{}
			st.cells[id] = sc
		}
		return fn(sc), nil
	}
	lib.Builtin("shared_get", func(c *Call, args []Value) (Value, error) {
		return cell(c, args, func(sc *sharedCell) Value { sc.m.reads++; return sc.value })
	})
	lib.Builtin("shared_snapshot", func(c *Call, args []Value) (Value, error) {
		return cell(c, args, func(sc *sharedCell) Value { sc.m.reads++; return snapshotValue(sc.value, sc.version) })
	})
	lib.Builtin("shared_set", func(c *Call, args []Value) (Value, error) {
		return cell(c, args, func(sc *sharedCell) Value {
			old := sc.value
			sc.value = share(Arg(args, 1))
			sc.version++
			sc.m.writes++
			return old
		})
	})
	lib.Builtin("shared_cas", func(c *Call, args []Value) (Value, error) {
		return cell(c, args, func(sc *sharedCell) Value {
			return Bool(cas(&sc.value, &sc.version, &sc.m, Arg(args, 1), Arg(args, 2)))
		})
	})
	smap := func(c *Call, args []Value, fn func(*sharedMap, string) Value) (Value, error) {
		id, err := handleID(c, Arg(args, 0), "shared_map")
		if err != nil {
			return Nil, err
		}
		key := ""
		if len(args) > 1 {
			if key, err = argString(c, args, 1); err != nil {
				return Nil, err
			}
		}
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		m := st.maps[id]
		if m == nil {
			m = &sharedMap{entries: map[string]Value{}}
			st.maps[id] = m
		}
		return fn(m, key), nil
	}
	lib.Builtin("shared_map_get", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, k string) Value {
			m.m.reads++
			if v, ok := m.entries[k]; ok {
				return v
			}
			return Arg(args, 2)
		})
	})
	lib.Builtin("shared_map_snapshot", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, k string) Value {
			m.m.reads++
			return snapshotValue(m.entries[k], m.version)
		})
	})
	lib.Builtin("shared_map_set", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, k string) Value {
			old := m.entries[k]
			m.entries[k] = share(Arg(args, 2))
			m.version++
			m.m.writes++
			return old
		})
	})
	lib.Builtin("shared_map_delete", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, k string) Value {
			old, ok := m.entries[k]
			if ok {
				delete(m.entries, k)
				m.version++
				m.m.writes++
			}
			return old
		})
	})
	lib.Builtin("shared_map_cas", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, k string) Value {
			cur, had := m.entries[k]
			ok := cas(&cur, &m.version, &m.m, Arg(args, 2), Arg(args, 3))
			if ok || had {
				m.entries[k] = cur
			}
			return Bool(ok)
		})
	})
	lib.Builtin("shared_map_entries", func(c *Call, args []Value) (Value, error) {
		return smap(c, args, func(m *sharedMap, _ string) Value {
			m.m.reads++
			keys := make([]string, 0, len(m.entries))
			for k := range m.entries {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			d := NewDict(len(keys))
			for _, k := range keys {
				d.Set(k, m.entries[k])
			}
			return DictValue(d)
		})
	})
	lib.Builtin("shared_metrics", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		kind := dictString(v.AsDict(), "_type")
		id, err := handleID(c, v, kind)
		if err != nil || (kind != "shared_cell" && kind != "shared_map") {
			return Nil, typeError("%s: argument 1 must be a shared_cell or shared_map handle, got %s", c.Name, v.TypeName())
		}
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		var d *Dict
		if sc := st.cells[id]; kind == "shared_cell" && sc != nil {
			d = sc.m.value(sc.version)
		} else if m := st.maps[id]; kind == "shared_map" && m != nil {
			d = m.m.value(m.version)
		} else {
			d = sharedMetrics{}.value(0)
		}
		for _, k := range []string{"_type", "scope", "key"} {
			x, _ := v.AsDict().Get(k)
			d.Set(k, x)
		}
		return DictValue(d), nil
	})

	lib.Builtin("mailbox_open", func(c *Call, args []Value) (Value, error) {
		opts, scope, err := openScope(c, args)
		if err != nil {
			return Nil, err
		}
		name := dictString(opts, "name")
		if name == "" {
			name = dictString(opts, "key")
		}
		if name == "" {
			return Nil, runtimeError("%s: a mailbox needs a name", c.Name)
		}
		capacity := int(optInt64(opts, "capacity", 256))
		if capacity <= 0 {
			return Nil, runtimeError("%s: capacity must be positive", c.Name)
		}
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		id := scope + "/" + name
		if st.mailboxes[id] == nil {
			st.mailboxes[id] = &mailbox{ch: newChannel(name, capacity), capacity: capacity}
		}
		st.byName[name] = id
		return sharedHandle("mailbox", scope, name), nil
	})
	lib.Builtin("mailbox_lookup", func(c *Call, args []Value) (Value, error) {
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		mb, id := st.mailboxTarget(Arg(args, 0))
		if mb == nil {
			return Nil, nil
		}
		i := strings.LastIndex(id, "/")
		return sharedHandle("mailbox", id[:i], id[i+1:]), nil
	})
	lib.Builtin("mailbox_send", func(c *Call, args []Value) (Value, error) {
		st := sharedOf(c.th.in)
		st.mu.Lock()
		mb, _ := st.mailboxTarget(Arg(args, 0))
		st.mu.Unlock()
		if mb == nil {
			return Bool(false), nil
		}
		ok, err := mb.ch.send(c.th, Arg(args, 1))
		if err != nil {
			return Nil, err
		}
		st.mu.Lock()
		if ok {
			mb.sent++
		} else {
			mb.failed++
		}
		st.mu.Unlock()
		return Bool(ok), nil
	})
	receive := func(block bool) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			st := sharedOf(c.th.in)
			st.mu.Lock()
			mb, _ := st.mailboxTarget(Arg(args, 0))
			st.mu.Unlock()
			if mb == nil {
				return Nil, nil
			}
			var v Value
			var ok bool
			if block {
				var err error
				if v, ok, err = mb.ch.recv(c.th); err != nil {
					return Nil, err
				}
			} else {
				v, ok, _, _ = mb.ch.tryRecv()
			}
			if ok {
				st.mu.Lock()
				mb.received++
				st.mu.Unlock()
			}
			return v, nil
		}
	}
	lib.Builtin("mailbox_receive", receive(true))
	lib.Builtin("mailbox_try_receive", receive(false))
	lib.Builtin("mailbox_close", func(c *Call, args []Value) (Value, error) {
		st := sharedOf(c.th.in)
		st.mu.Lock()
		mb, _ := st.mailboxTarget(Arg(args, 0))
		st.mu.Unlock()
		if mb == nil {
			return Bool(false), nil
		}
		mb.ch.close()
		return Bool(true), nil
	})
	lib.Builtin("mailbox_metrics", func(c *Call, args []Value) (Value, error) {
		st := sharedOf(c.th.in)
		st.mu.Lock()
		defer st.mu.Unlock()
		mb, _ := st.mailboxTarget(Arg(args, 0))
		if mb == nil {
			return DictValue((&mailbox{ch: newChannel("", 0)}).metrics()), nil
		}
		return DictValue(mb.metrics()), nil
	})

	lib.Builtin("channel_select", func(c *Call, args []Value) (Value, error) {
		list := Arg(args, 0)
		if list.k != KindList {
			return Nil, typeError("%s: argument 1 must be a list of channels, got %s", c.Name, list.TypeName())
		}
		var chans []*Channel
		for _, v := range list.AsList().SharedItems() {
			ch, ok := v.r.(*Channel)
			if v.k != KindChannel || !ok {
				return Nil, typeError("%s: argument 1 must be a list of channels, got an element of type %s", c.Name, v.TypeName())
			}
			chans = append(chans, ch)
		}
		timeout := time.Duration(-1)
		if t := Arg(args, 1); t.k != KindNil {
			timeout = syncTimeout(t)
		}
		i, v, ok, err := selectChannels(c.th, chans, timeout)
		if err != nil || !ok {
			return Nil, err
		}
		d := NewDict(3)
		d.Set("index", Int(int64(i)))
		d.Set("channel", Str(chans[i].name))
		d.Set("value", v)
		return DictValue(d), nil
	})
}

// selectChannels receives from the first of chans to have a value,
// waiting at most timeout (forever when negative); ok is false when the
// timeout passes or every channel is closed and drained.
func selectChannels(th *thread, chans []*Channel, timeout time.Duration) (int, Value, bool, error) {
	var deadline <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	for {
		allClosed := true
		var waits []chan struct{}
		for i, ch := range chans {
			v, ok, closed, wait := ch.tryRecv()
			if ok {
				return i, v, true, nil
			}
			allClosed = allClosed && closed
			waits = append(waits, wait)
		}
		if allClosed || timeout == 0 {
			return 0, Nil, false, nil
		}
		what := "channel_select"
		if deadline != nil {
			what = ""
		}
		timedOut, err := th.waitAny(what, waits, deadline)
		if err != nil {
			return 0, Nil, false, err
		}
		if timedOut {
			return 0, Nil, false, nil
		}
	}
}
