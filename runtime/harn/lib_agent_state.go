package harn

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// std/agent_state: durable key/value state an agent (or a stage, a
// worker, another process) writes under ROOT/SESSION_ID/KEY, through the
// host's file access (so only where the program may write). A handle is
// {_type: "state_handle", backend: "filesystem", root, session_id,
// handoff_key, conflict_policy, writer}. Each key remembers its last
// writer in ROOT/SESSION_ID/.agent_state_meta/KEY.json; a write by a
// different writer is a conflict the handle's policy ignores, warns
// about or turns into an error. agent_state_handoff writes the
// __handoff.json envelope a resuming agent reads first.

const (
	agentStateHandoffKey = "__handoff.json"
	agentStateMetaDir    = ".agent_state_meta"
)

func stateErr(msg string) error { return runtimeError("%s", msg) }

// stateHandle reads a handle argument.
func stateHandle(args []Value, fn string) (*Dict, error) {
	h := Arg(args, 0)
	if h.k != KindDict || dictString(h.r.(*Dict), "_type") != "state_handle" {
		return nil, stateErr(fn + ": `handle` must be a state_handle dict")
	}
	return h.r.(*Dict), nil
}

// stateKeyPath is where a key lives; keys are relative paths that stay
// inside the session's folder.
func stateKeyPath(h *Dict, key, fn string) (string, error) {
	clean := filepath.ToSlash(filepath.Clean(key))
	if key == "" || filepath.IsAbs(key) || clean == ".." || strings.HasPrefix(clean, "../") || strings.HasPrefix(clean, agentStateMetaDir) {
		return "", stateErr(fn + ": invalid key '" + key + "'")
	}
	return filepath.Join(dictString(h, "root"), dictString(h, "session_id"), filepath.FromSlash(clean)), nil
}

func stateMetaPath(h *Dict, key string) string {
	return filepath.Join(dictString(h, "root"), dictString(h, "session_id"), agentStateMetaDir, filepath.FromSlash(filepath.Clean(key))+".json")
}

func writerName(w *Dict) string {
	for _, k := range []string{"writer_id", "stage_id", "worker_id", "session_id"} {
		if s := dictString(w, k); s != "" {
			return s
		}
	}
	return "anonymous"
}

// newStateHandle builds a handle from a root, a session id and options.
func newStateHandle(c *Call, root, session string, opts *Dict) (Value, error) {
	policy := orDefault(dictString(opts, "conflict_policy"), orDefault(dictString(opts, "two_writer"), "ignore"))
	switch policy {
	case "ignore", "warn", "error":
	default:
		return Nil, stateErr("agent_state: conflict_policy must be one of ignore, warn, error; got '" + policy + "'")
	}
	current := ""
	if s := sessionsOf(c); true {
		s.mu.Lock()
		if n := len(s.current); n > 0 {
			current = s.current[n-1]
		}
		s.mu.Unlock()
	}
	w := NewDict(4)
	for _, k := range []string{"writer_id", "stage_id", "worker_id"} {
		if v := dictString(opts, k); v != "" {
			w.Set(k, Str(v))
		} else {
			w.Set(k, Nil)
		}
	}
	if dictString(w, "writer_id") == "" && current != "" {
		w.Set("writer_id", Str(current))
	}
	if current != "" {
		w.Set("session_id", Str(current))
	} else {
		w.Set("session_id", Nil)
	}
	h := strDict("_type", "state_handle", "backend", "filesystem", "root", root, "session_id", session,
		"handoff_key", agentStateHandoffKey, "conflict_policy", policy)
	h.Set("writer", DictValue(w))
	if err := c.th.in.host.Mkdir(filepath.Join(root, session), true); err != nil {
		return Nil, ioError("agent_state: failed to create "+filepath.Join(root, session), err)
	}
	return DictValue(h), nil
}

// stateWrite writes content under key, checking the last writer first.
func stateWrite(c *Call, h *Dict, key, content, fn string) error {
	p, err := stateKeyPath(h, key, fn)
	if err != nil {
		return err
	}
	hst := c.th.in.host
	w := dictField2(h, "writer")
	me := writerName(w)
	mp := stateMetaPath(h, key)
	if b, err := hst.ReadFile(mp); err == nil {
		if prev, err := ParseJSON(string(b)); err == nil && prev.k == KindDict {
			if before := writerName(prev.r.(*Dict)); before != me {
				msg := "agent_state.write: key '" + key + "' was previously written by '" + before + "' and is now being written by '" + me + "'"
				switch dictString(h, "conflict_policy") {
				case "error":
					return stateErr(msg)
				case "warn":
					_ = hst.WriteStderr("warning: " + msg + "\n")
				}
			}
		}
	}
	for _, dir := range []string{filepath.Dir(p), filepath.Dir(mp)} {
		if err := hst.Mkdir(dir, true); err != nil {
			return ioError(fn+": failed to create "+dir, err)
		}
	}
	// Write to a temporary file and rename, so a crash never leaves a
	// half-written value.
	tmp := p + ".tmp-" + newUUID(c)
	if err := hst.WriteFile(tmp, []byte(content)); err != nil {
		return ioError(fn+": failed to write "+p, err)
	}
	if err := hst.Rename(tmp, p); err != nil {
		return ioError(fn+": failed to write "+p, err)
	}
	meta := NewDict(2)
	meta.Set("writer", DictValue(w))
	for _, k := range w.Keys() {
		v, _ := w.Get(k)
		meta.Set(k, v)
	}
	meta.Set("written_at", Int(hst.Now().Unix()))
	if err := hst.WriteFile(mp, []byte(jsonText(DictValue(meta)))); err != nil {
		return ioError(fn+": failed to write metadata", err)
	}
	return nil
}

func dictField2(d *Dict, key string) *Dict {
	if v, ok := d.Get(key); ok && v.k == KindDict {
		return v.r.(*Dict)
	}
	return NewDict(0)
}

func stdAgentState() map[string]func(c *Call, args []Value) (Value, error) {
	return map[string]func(c *Call, args []Value) (Value, error){
		"agent_state_handoff_key": func(c *Call, args []Value) (Value, error) { return Str(agentStateHandoffKey), nil },
		"agent_state_init": func(c *Call, args []Value) (Value, error) {
			root := Arg(args, 0)
			if root.k != KindString || root.AsString() == "" {
				return Nil, stateErr("agent_state_init: `root` must be a string")
			}
			opts := NewDict(0)
			if o := Arg(args, 1); o.k == KindDict {
				opts = o.r.(*Dict)
			}
			session := dictString(opts, "session_id")
			if session == "" {
				s := sessionsOf(c)
				s.mu.Lock()
				if n := len(s.current); n > 0 {
					session = s.current[n-1]
				}
				s.mu.Unlock()
			}
			if session == "" {
				session = newUUID(c)
			}
			return newStateHandle(c, root.AsString(), session, opts)
		},
		"agent_state_resume": func(c *Call, args []Value) (Value, error) {
			root, session := Arg(args, 0), Arg(args, 1)
			if root.k != KindString || session.k != KindString {
				return Nil, stateErr("agent_state_resume: `root` and `session_id` must be strings")
			}
			if _, err := c.th.in.host.Stat(filepath.Join(root.AsString(), session.AsString())); err != nil {
				return Nil, stateErr("agent_state_resume: no state for session '" + session.AsString() + "' under " + root.AsString())
			}
			opts := NewDict(0)
			if o := Arg(args, 2); o.k == KindDict {
				opts = o.r.(*Dict)
			}
			return newStateHandle(c, root.AsString(), session.AsString(), opts)
		},
		"agent_state_write": func(c *Call, args []Value) (Value, error) {
			h, err := stateHandle(args, "agent_state_write")
			if err != nil {
				return Nil, err
			}
			key, content := Arg(args, 1), Arg(args, 2)
			if key.k != KindString || content.k != KindString {
				return Nil, stateErr("agent_state_write: `key` and `content` must be strings")
			}
			return Nil, stateWrite(c, h, key.AsString(), content.AsString(), "agent_state_write")
		},
		"agent_state_read": func(c *Call, args []Value) (Value, error) {
			h, err := stateHandle(args, "agent_state_read")
			if err != nil {
				return Nil, err
			}
			p, err := stateKeyPath(h, Display(Arg(args, 1)), "agent_state_read")
			if err != nil {
				return Nil, err
			}
			b, err := c.th.in.host.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return Nil, nil
			} else if err != nil {
				return Nil, ioError("agent_state_read: failed to read "+p, err)
			}
			return Str(string(b)), nil
		},
		"agent_state_list": func(c *Call, args []Value) (Value, error) {
			h, err := stateHandle(args, "agent_state_list")
			if err != nil {
				return Nil, err
			}
			base := filepath.Join(dictString(h, "root"), dictString(h, "session_id"))
			var keys []string
			var walk func(dir, rel string) error
			walk = func(dir, rel string) error {
				ents, err := c.th.in.host.ReadDir(dir)
				if err != nil {
					return err
				}
				for _, e := range ents {
					name := e.Name()
					if rel == "" && name == agentStateMetaDir || strings.Contains(name, ".tmp-") {
						continue
					}
					r := name
					if rel != "" {
						r = rel + "/" + name
					}
					if e.IsDir() {
						if err := walk(filepath.Join(dir, name), r); err != nil {
							return err
						}
						continue
					}
					keys = append(keys, r)
				}
				return nil
			}
			if err := walk(base, ""); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Nil, ioError("agent_state_list: failed to list "+base, err)
			}
			sort.Strings(keys)
			return NewListValue(StrValues(keys)), nil
		},
		"agent_state_delete": func(c *Call, args []Value) (Value, error) {
			h, err := stateHandle(args, "agent_state_delete")
			if err != nil {
				return Nil, err
			}
			key := Display(Arg(args, 1))
			p, err := stateKeyPath(h, key, "agent_state_delete")
			if err != nil {
				return Nil, err
			}
			if err := c.th.in.host.Remove(p, false); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Nil, ioError("agent_state_delete: failed to delete "+p, err)
			}
			_ = c.th.in.host.Remove(stateMetaPath(h, key), false)
			return Nil, nil
		},
		"agent_state_handoff": func(c *Call, args []Value) (Value, error) {
			h, err := stateHandle(args, "agent_state_handoff")
			if err != nil {
				return Nil, err
			}
			summary := Arg(args, 1)
			if summary.k != KindDict {
				return Nil, stateErr("agent_state_handoff: `summary` must be a JSON object")
			}
			env := strDict("_type", "agent_state_handoff", "session_id", dictString(h, "session_id"),
				"root", dictString(h, "root"), "key", agentStateHandoffKey)
			env.Set("version", Int(1))
			env.Set("summary", summary)
			env.Set("handoff", summary)
			env.Set("writer", DictValue(dictField2(h, "writer")))
			env.Set("written_at", Int(c.th.in.host.Now().Unix()))
			return Nil, stateWrite(c, h, agentStateHandoffKey, jsonText(DictValue(env)), "agent_state_handoff")
		},
	}
}

func installAgentState(lib *Library) { lib.StdModule("std/agent_state", stdAgentState()) }
