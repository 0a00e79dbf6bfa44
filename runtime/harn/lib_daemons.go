package harn

import (
	"path/filepath"
	"strings"
	"sync"
)

// Daemon wrappers: daemon_spawn(config) starts a long-lived agent (the
// agent_loop options plus name, task, system, persist_path,
// event_queue_capacity) that takes its first turn on the task and then
// idles; daemon_trigger(handle, event) queues an event, and the daemon
// wakes and takes a turn on it (in this runtime at once, in the
// caller's task, so runs stay deterministic); daemon_snapshot reports
// {daemon_state, total_iterations, queued_event_count,
// pending_event_count, recorded_messages}; daemon_stop persists the
// snapshot under persist_path (a folder, or a .json file) and
// daemon_resume(path) restores a stopped daemon from it.

type daemon struct {
	mu      sync.Mutex
	id      string
	name    string
	run     *loopRun
	system  string
	status  string // running, stopped
	state   string // idle, active
	queue   []Value
	capacty int
	persist string
	config  *Dict
}

type daemonStore struct {
	mu   sync.Mutex
	byID map[string]*daemon
	next int
}

func daemonsOf(c *Call) *daemonStore {
	return c.th.in.State("agent_daemons", func() any { return &daemonStore{byID: map[string]*daemon{}} }).(*daemonStore)
}

func (d *daemon) handle() Value {
	h := strDict("_type", "daemon", "id", d.id, "name", d.name, "status", d.status)
	if d.persist != "" {
		h.Set("persist_path", Str(d.persist))
	} else {
		h.Set("persist_path", Nil)
	}
	return DictValue(h)
}

func (d *daemon) snapshot() Value {
	s := strDict("_type", "daemon_snapshot", "id", d.id, "name", d.name, "status", d.status, "daemon_state", d.state, "system", d.system)
	s.Set("total_iterations", Int(d.run.iterations))
	s.Set("queued_event_count", Int(int64(len(d.queue))))
	s.Set("pending_event_count", Int(int64(len(d.queue))))
	s.Set("pending_events", NewListValue(append([]Value{}, d.queue...)))
	s.Set("recorded_messages", NewListValue(append([]Value{}, d.run.messages...)))
	s.Set("transcript_summary", Str(d.run.summary))
	s.Set("config", DictValue(d.config))
	return DictValue(s)
}

// snapshotPath is the file a daemon persists to.
func (d *daemon) snapshotPath() string {
	if strings.HasSuffix(d.persist, ".json") {
		return d.persist
	}
	return filepath.Join(d.persist, "daemon.json")
}

// wake takes turns until the queue is empty; the caller holds d.mu.
func (d *daemon) wake(c *Call) error {
	for len(d.queue) > 0 && d.status == "running" {
		ev := d.queue[0]
		d.queue = d.queue[1:]
		d.state = "active"
		d.run.messages = append(d.run.messages, messageValue("user", Str("Daemon trigger event: "+jsonText(ev))))
		if _, err := d.run.run(d.system); err != nil {
			d.state = "idle"
			return err
		}
		d.state = "idle"
	}
	return nil
}

// daemonConfig prepares the loop of a daemon: not persistent (each wake
// is one exchange), the options as given.
func newDaemon(c *Call, cfgDict *Dict) (*daemon, error) {
	opts := cfgDict.clone()
	for _, k := range []string{"daemon", "persistent"} {
		opts.Delete(k)
	}
	cfg, err := parseLoopConfig(c, "daemon_spawn", opts)
	if err != nil {
		return nil, err
	}
	sys, _ := cfgDict.Get("system")
	ds := daemonsOf(c)
	ds.mu.Lock()
	ds.next++
	id := "daemon_" + itoa(int64(ds.next))
	ds.mu.Unlock()
	d := &daemon{id: id, name: orDefault(dictString(cfgDict, "name"), id), run: &loopRun{c: c, cfg: cfg},
		system: cfg.systemPrompt(sys), status: "running", state: "idle", persist: dictString(cfgDict, "persist_path"),
		capacty: int(optInt64(cfgDict, "event_queue_capacity", 1024)), config: cfgDict}
	ds.mu.Lock()
	ds.byID[id] = d
	ds.mu.Unlock()
	return d, nil
}

func daemonArg(c *Call, v Value, fn string) (*daemon, error) {
	id := ""
	if v.k == KindDict {
		id = dictString(v.r.(*Dict), "id")
	} else if v.k == KindString {
		id = v.AsString()
	}
	ds := daemonsOf(c)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if d, ok := ds.byID[id]; ok {
		return d, nil
	}
	return nil, throwValue(Str(fn + ": unknown daemon '" + id + "'"))
}

func (d *daemon) persistTo(c *Call) error {
	if d.persist == "" {
		return nil
	}
	p := d.snapshotPath()
	if err := c.th.in.host.Mkdir(filepath.Dir(p), true); err != nil {
		return ioError("daemon: failed to create "+filepath.Dir(p), err)
	}
	if err := c.th.in.host.WriteFile(p, []byte(jsonText(d.snapshot()))); err != nil {
		return ioError("daemon: failed to write "+p, err)
	}
	return nil
}

func installDaemons(lib *Library) {
	lib.Builtin("daemon_spawn", func(c *Call, args []Value) (Value, error) {
		cfg := Arg(args, 0)
		if cfg.k != KindDict {
			return Nil, throwValue(Str("daemon_spawn: config must be a dict"))
		}
		d, err := newDaemon(c, cfg.r.(*Dict))
		if err != nil {
			return Nil, err
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		if task, ok := cfg.r.(*Dict).Get("task"); ok && task.k != KindNil {
			d.run.messages = append(d.run.messages, messageValue("user", task))
			d.state = "active"
			if _, err := d.run.run(d.system); err != nil {
				return Nil, err
			}
			d.state = "idle"
		}
		if err := d.persistTo(c); err != nil {
			return Nil, err
		}
		return d.handle(), nil
	})
	lib.Builtin("daemon_trigger", func(c *Call, args []Value) (Value, error) {
		d, err := daemonArg(c, Arg(args, 0), "daemon_trigger")
		if err != nil {
			return Nil, err
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.status != "running" {
			return Nil, throwValue(Str("daemon_trigger: daemon '" + d.name + "' is " + d.status))
		}
		if len(d.queue) >= d.capacty {
			return Nil, throwValue(Str("daemon_trigger: event queue of daemon '" + d.name + "' is full"))
		}
		d.queue = append(d.queue, Arg(args, 1))
		if err := d.wake(c); err != nil {
			return Nil, err
		}
		if err := d.persistTo(c); err != nil {
			return Nil, err
		}
		return d.handle(), nil
	})
	lib.Builtin("daemon_snapshot", func(c *Call, args []Value) (Value, error) {
		d, err := daemonArg(c, Arg(args, 0), "daemon_snapshot")
		if err != nil {
			return Nil, err
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.snapshot(), nil
	})
	lib.Builtin("daemon_stop", func(c *Call, args []Value) (Value, error) {
		d, err := daemonArg(c, Arg(args, 0), "daemon_stop")
		if err != nil {
			return Nil, err
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		d.status, d.state = "stopped", "stopped"
		if err := d.persistTo(c); err != nil {
			return Nil, err
		}
		return d.handle(), nil
	})
	lib.Builtin("daemon_resume", func(c *Call, args []Value) (Value, error) {
		p := Display(Arg(args, 0))
		file := p
		if !strings.HasSuffix(p, ".json") {
			file = filepath.Join(p, "daemon.json")
		}
		b, err := c.th.in.host.ReadFile(file)
		if err != nil {
			return Nil, ioError("daemon_resume: failed to read "+file, err)
		}
		snap, err := ParseJSON(string(b))
		if err != nil || snap.k != KindDict {
			return Nil, throwValue(Str("daemon_resume: " + file + " is not a daemon snapshot"))
		}
		sd := snap.r.(*Dict)
		cfg := dictField2(sd, "config").clone()
		cfg.Set("persist_path", Str(p))
		cfg.Delete("task")
		d, err := newDaemon(c, cfg)
		if err != nil {
			return Nil, err
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		d.name = orDefault(dictString(sd, "name"), d.name)
		d.run.messages = dictList(sd, "recorded_messages")
		d.run.iterations = optInt64(sd, "total_iterations", 0)
		d.run.summary = dictString(sd, "transcript_summary")
		d.queue = dictList(sd, "pending_events")
		if err := d.wake(c); err != nil {
			return Nil, err
		}
		return d.handle(), nil
	})
}
