package harn

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Checkpoints for resumable pipelines: checkpoint(key, value) stores a
// JSON value under a key and writes the whole set at once to
// <state root>/checkpoints/<pipeline>.json, where the state root is
// $HARN_STATE_DIR or .harn in the program's folder; checkpoint_get,
// checkpoint_exists, checkpoint_list, checkpoint_delete and
// checkpoint_clear read and change it. The file goes through the host,
// so it stays inside what the program may write. std/checkpoint adds
// checkpoint_stage (run once, then reuse the stored result) and
// checkpoint_stage_retry.

type checkpoints struct {
	mu     sync.Mutex
	path   string
	loaded bool
	data   map[string]Value
}

func checkpointsOf(c *Call) *checkpoints {
	in := c.th.in
	return in.State("checkpoints", func() any {
		root := stateRoot(in)
		name := filepath.Base(in.pipelineName)
		if name == "" || name == "." || name == ".." || name == "/" {
			name = "default"
		}
		return &checkpoints{path: filepath.Join(root, "checkpoints", name+".json"), data: map[string]Value{}}
	}).(*checkpoints)
}

// load reads the file once; a missing or unreadable file is an empty set.
func (cp *checkpoints) load(c *Call) {
	if cp.loaded {
		return
	}
	cp.loaded = true
	b, err := c.th.in.host.ReadFile(cp.path)
	if err != nil {
		return
	}
	if v, err := ParseJSON(string(b)); err == nil && v.k == KindDict {
		d := v.r.(*Dict)
		for _, k := range d.Keys() {
			cp.data[k], _ = d.Get(k)
		}
	}
}

func (cp *checkpoints) save(c *Call) error {
	keys := cp.keys()
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		writeJSONString(&b, k)
		b.WriteString(":")
		writeJSON(&b, cp.data[k], 0)
	}
	b.WriteString("}")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(b.String()), "", "  "); err != nil {
		return runtimeError("checkpoint save error: %v", err)
	}
	h := c.th.in.host
	if err := h.Mkdir(filepath.Dir(cp.path), true); err != nil {
		return ioError("checkpoint mkdir", err)
	}
	if err := h.WriteFile(cp.path, pretty.Bytes()); err != nil {
		return ioError("checkpoint write", err)
	}
	return nil
}

func (cp *checkpoints) keys() []string {
	keys := make([]string, 0, len(cp.data))
	for k := range cp.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonSafe is what survives the JSON file: values that have no JSON form
// are stored as null.
func jsonSafe(v Value, depth int) Value {
	if depth > maxValueDepth {
		return Nil
	}
	switch v.k {
	case KindNil, KindBool, KindInt, KindFloat, KindString:
		return v
	case KindList:
		items := v.r.(*List).items
		out := make([]Value, len(items))
		for i, x := range items {
			out[i] = jsonSafe(x, depth+1)
		}
		return NewListValue(out)
	case KindDict:
		d := v.r.(*Dict)
		out := NewDict(d.Len())
		for _, k := range d.Keys() {
			x, _ := d.Get(k)
			out.Set(k, jsonSafe(x, depth+1))
		}
		return DictValue(out)
	}
	return Nil
}

func withCheckpoints(c *Call, f func(cp *checkpoints) (Value, error)) (Value, error) {
	cp := checkpointsOf(c)
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.load(c)
	return f(cp)
}

func installCheckpoint(lib *Library) {
	lib.Builtin("checkpoint", func(c *Call, args []Value) (Value, error) {
		return withCheckpoints(c, func(cp *checkpoints) (Value, error) {
			cp.data[Display(Arg(args, 0))] = jsonSafe(Arg(args, 1), 0)
			return Nil, cp.save(c)
		})
	})
	lib.Builtin("checkpoint_get", func(c *Call, args []Value) (Value, error) {
		return withCheckpoints(c, func(cp *checkpoints) (Value, error) {
			return share(cp.data[Display(Arg(args, 0))]), nil
		})
	})
	lib.Builtin("checkpoint_exists", func(c *Call, args []Value) (Value, error) {
		return withCheckpoints(c, func(cp *checkpoints) (Value, error) {
			_, ok := cp.data[Display(Arg(args, 0))]
			return Bool(ok), nil
		})
	})
	lib.Builtin("checkpoint_list", func(c *Call, args []Value) (Value, error) {
		return withCheckpoints(c, func(cp *checkpoints) (Value, error) {
			return NewListValue(StrValues(cp.keys())), nil
		})
	})
	lib.Builtin("checkpoint_delete", func(c *Call, args []Value) (Value, error) {
		return withCheckpoints(c, func(cp *checkpoints) (Value, error) {
			delete(cp.data, Display(Arg(args, 0)))
			return Nil, cp.save(c)
		})
	})
	lib.Builtin("checkpoint_clear", func(c *Call, args []Value) (Value, error) {
		cp := checkpointsOf(c)
		cp.mu.Lock()
		defer cp.mu.Unlock()
		cp.loaded, cp.data = true, map[string]Value{}
		if err := c.th.in.host.Remove(cp.path, false); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Nil, ioError("checkpoint clear", err)
		}
		return Nil, nil
	})
	lib.StdModule("std/checkpoint", map[string]func(c *Call, args []Value) (Value, error){
		"checkpoint_stage": func(c *Call, args []Value) (Value, error) {
			name := Display(Arg(args, 0))
			if v, ok := storedCheckpoint(c, name); ok {
				return v, nil
			}
			v, err := c.th.callValue(Arg(args, 1), nil)
			if err != nil {
				return Nil, err
			}
			return v, storeCheckpoint(c, name, v)
		},
		"checkpoint_stage_retry": func(c *Call, args []Value) (Value, error) {
			name := Display(Arg(args, 0))
			if v, ok := storedCheckpoint(c, name); ok {
				return v, nil
			}
			tries := IntArg(Arg(args, 1), 0)
			last := "unknown error"
			for i := int64(0); i < tries; i++ {
				v, err := c.th.callValue(Arg(args, 2), nil)
				if err == nil {
					return v, storeCheckpoint(c, name, v)
				}
				e, ok := catchable(err)
				if !ok {
					return Nil, err
				}
				last = Display(e.Value)
			}
			return Nil, throwValue(Str("checkpoint_stage_retry failed after " + strconv.FormatInt(tries, 10) + " attempts: " + last))
		},
	})
}

func storedCheckpoint(c *Call, name string) (Value, bool) {
	cp := checkpointsOf(c)
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.load(c)
	v, ok := cp.data[name]
	return share(v), ok
}

func storeCheckpoint(c *Call, name string, v Value) error {
	cp := checkpointsOf(c)
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.load(c)
	cp.data[name] = jsonSafe(v, 0)
	return cp.save(c)
}
