package harn

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/host"
)

// System builtins: environment, processes (behind --allow-exec), program
// paths, identifiers and the runtime context.

// ExitError ends a program with a status (the exit builtin); it is not
// catchable.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return "exit " + itoa(int64(e.Code)) }

func itoa(n int64) string { return Display(Int(n)) }

func installSystem(lib *Library) {
	lib.Builtin("env", func(c *Call, args []Value) (Value, error) {
		if v, ok := c.th.in.host.LookupEnv(Display(Arg(args, 0))); ok {
			return Str(v), nil
		}
		return Nil, nil
	})
	lib.Builtin("env_or", func(c *Call, args []Value) (Value, error) {
		if v, ok := c.th.in.host.LookupEnv(Display(Arg(args, 0))); ok && v != "" {
			return Str(v), nil
		}
		return Arg(args, 1), nil
	})
	run := func(c *Call, dir, name string, argv []string) (Value, error) {
		var res *host.CommandResult
		var err error
		c.Block(func() {
			res, err = c.th.in.host.Run(c.th.ctx, host.Command{Name: name, Args: argv, Dir: dir})
		})
		if err != nil {
			if c.th.ctx.Err() != nil {
				if lerr := c.th.checkLimits(); lerr != nil {
					return Nil, lerr
				}
				return Nil, plainError("Deadline exceeded")
			}
			return Nil, ioError(c.Name+": "+name, err)
		}
		d := NewDict(4)
		d.Set("stdout", Str(strings.ToValidUTF8(string(res.Stdout), "\uFFFD")))
		d.Set("stderr", Str(strings.ToValidUTF8(string(res.Stderr), "\uFFFD")))
		d.Set("status", Int(int64(res.ExitCode)))
		d.Set("success", Bool(res.ExitCode == 0))
		return DictValue(d), nil
	}
	strs := func(vs []Value) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = Display(v)
		}
		return out
	}
	lib.Builtin("exec", func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, throwValue(Str("exec: command is required"))
		}
		return run(c, "", Display(args[0]), strs(args[1:]))
	})
	lib.Builtin("exec_at", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("exec_at: directory and command are required"))
		}
		return run(c, Display(args[0]), Display(args[1]), strs(args[2:]))
	})
	lib.Builtin("shell", func(c *Call, args []Value) (Value, error) {
		cmd := Display(Arg(args, 0))
		if cmd == "" {
			return Nil, throwValue(Str("shell: command string is required"))
		}
		return run(c, "", "sh", []string{"-c", cmd})
	})
	lib.Builtin("shell_at", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("shell_at: directory and command string are required"))
		}
		return run(c, Display(args[0]), "sh", []string{"-c", Display(args[1])})
	})
	lib.Builtin("exit", func(c *Call, args []Value) (Value, error) {
		return Nil, &ExitError{Code: int(IntArg(Arg(args, 0), 0))}
	})
	lib.Builtin("cwd", func(c *Call, args []Value) (Value, error) {
		if wd := c.th.in.host.WorkDir(); wd != "" {
			return Str(wd), nil
		}
		return Str(c.th.in.host.Root()), nil
	})
	root := func(c *Call, args []Value) (Value, error) { return Str(c.th.in.host.Root()), nil }
	lib.Builtin("source_dir", root)
	lib.Builtin("asset_root", root)
	lib.Builtin("execution_root", root)
	lib.Builtin("runtime_paths", func(c *Call, args []Value) (Value, error) {
		root := c.th.in.host.Root()
		d := NewDict(6)
		d.Set("execution_root", Str(root))
		d.Set("asset_root", Str(root))
		d.Set("source_dir", Str(root))
		d.Set("state_root", Str(filepath.Join(root, ".harn")))
		d.Set("run_root", Str(filepath.Join(root, ".harn-runs")))
		d.Set("worktree_root", Str(filepath.Join(root, ".harn", "worktrees")))
		return DictValue(d), nil
	})
	lib.Builtin("project_root", func(c *Call, args []Value) (Value, error) {
		// The nearest folder holding a harn.toml (present, not read).
		exists := catalog.LoaderFunc(func(p string) ([]byte, error) {
			_, err := os.Stat(p)
			return nil, err
		})
		if d := catalog.FindProject(exists, c.th.in.host.Root()).Dir(); d != "" {
			return Str(d), nil
		}
		return Nil, nil
	})
	lib.Builtin("platform", func(c *Call, args []Value) (Value, error) {
		return Str(runtime.GOOS), nil
	})
	lib.Builtin("arch", func(c *Call, args []Value) (Value, error) {
		switch runtime.GOARCH {
		case "amd64":
			return Str("x86_64"), nil
		case "arm64":
			return Str("aarch64"), nil
		}
		return Str(runtime.GOARCH), nil
	})
	lib.Builtin("pid", func(c *Call, args []Value) (Value, error) { return Int(int64(os.Getpid())), nil })
	lib.Builtin("home_dir", func(c *Call, args []Value) (Value, error) {
		if v, ok := c.th.in.host.LookupEnv("HOME"); ok && v != "" {
			return Str(v), nil
		}
		if u, err := user.Current(); err == nil {
			return Str(u.HomeDir), nil
		}
		return Str(""), nil
	})
	lib.Builtin("username", func(c *Call, args []Value) (Value, error) {
		if v, ok := c.th.in.host.LookupEnv("USER"); ok && v != "" {
			return Str(v), nil
		}
		if u, err := user.Current(); err == nil {
			return Str(u.Username), nil
		}
		return Str(""), nil
	})
	lib.Builtin("hostname", func(c *Call, args []Value) (Value, error) {
		h, _ := os.Hostname()
		return Str(h), nil
	})
	lib.Builtin("uuid", func(c *Call, args []Value) (Value, error) {
		b := c.th.in.host.SecureBytes(16)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return Str(formatUUID(b)), nil
	})
	lib.Builtin("uuid_nil", func(c *Call, args []Value) (Value, error) {
		return Str("00000000-0000-0000-0000-000000000000"), nil
	})
	lib.Builtin("uuid_parse", func(c *Call, args []Value) (Value, error) {
		s := strings.ToLower(strings.TrimSpace(Display(Arg(args, 0))))
		h := strings.ReplaceAll(s, "-", "")
		if len(h) != 32 || strings.Trim(h, "0123456789abcdef") != "" {
			return Nil, nil
		}
		return Str(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]), nil
	})
	lib.Builtin("runtime_context", runtimeContext)
	lib.Builtin("task_current", runtimeContext)
	lib.Builtin("runtime_context_values", func(c *Call, args []Value) (Value, error) {
		d := NewDict(len(c.th.task.values))
		for k, v := range c.th.task.values {
			d.Set(k, v)
		}
		return DictValue(d), nil
	})
	lib.Builtin("runtime_context_get", func(c *Call, args []Value) (Value, error) {
		if v, ok := c.th.task.values[Display(Arg(args, 0))]; ok {
			return v, nil
		}
		return Arg(args, 1), nil
	})
	lib.Builtin("runtime_context_set", func(c *Call, args []Value) (Value, error) {
		k := Display(Arg(args, 0))
		old := c.th.task.values[k]
		c.th.task.values[k] = share(Arg(args, 1))
		return old, nil
	})
	lib.Builtin("runtime_context_clear", func(c *Call, args []Value) (Value, error) {
		k := Display(Arg(args, 0))
		old := c.th.task.values[k]
		delete(c.th.task.values, k)
		return old, nil
	})
}

func formatUUID(b []byte) string {
	const hexd = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexd[x>>4], hexd[x&15])
	}
	return string(out)
}

func runtimeContext(c *Call, args []Value) (Value, error) {
	t := c.th.task
	d := NewDict(8)
	for _, k := range []string{"task_id", "parent_task_id", "root_task_id", "task_name", "task_group_id", "scope_id",
		"workflow_id", "run_id", "stage_id", "worker_id", "agent_session_id", "parent_agent_session_id",
		"root_agent_session_id", "agent_name", "trigger_id", "trigger_event_id", "binding_key", "tenant_id",
		"provider", "trace_id", "span_id", "scheduler_key", "runner", "capacity_class", "debug"} {
		d.Set(k, Nil)
	}
	d.Set("task_id", Str(t.id))
	root := t
	for root.parent != nil {
		root = root.parent
	}
	d.Set("root_task_id", Str(root.id))
	if t.parent != nil {
		d.Set("parent_task_id", Str(t.parent.id))
	}
	if t.name != "" {
		d.Set("task_name", Str(t.name))
	}
	if t.group != "" {
		d.Set("task_group_id", Str(t.group))
	}
	vals := NewDict(len(t.values))
	for k, v := range t.values {
		vals.Set(k, v)
	}
	d.Set("context_values", DictValue(vals))
	d.Set("cancelled", Bool(t.ctx != nil && t.ctx.Err() != nil))
	if sv := debugSupervisors(c.th.in); sv.k != KindNil {
		dbg := NewDict(1)
		dbg.Set("supervisors", sv)
		d.Set("debug", DictValue(dbg))
	}
	return DictValue(d), nil
}

var _ = context.Background
