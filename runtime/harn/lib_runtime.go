package harn

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
)

// The host operations a run answers itself when no host_mock does
// (host_call("capability.operation", params)), and std/runtime, whose
// functions are host calls: process.exec runs a command through a shell
// or from an argv behind --allow-exec; process.get_default_shell and
// process.list_shells describe the shells; runtime.task reads HARN_TASK;
// workspace.cwd and workspace.project_root name the working directory.
// Processes run in a process group of their own that is killed when the
// run ends, so a server a command starts in the background (`cmd &`)
// lives at most as long as the run.

// hostOps are the built-in answers to host_call, by "capability.operation".
var hostOps = map[string]func(c *Call, params *Dict) (Value, error){
	"process.exec":              processExec,
	"process.get_default_shell": func(c *Call, _ *Dict) (Value, error) { return shellValue(defaultShell(c)), nil },
	"process.list_shells": func(c *Call, _ *Dict) (Value, error) {
		var out []Value
		for _, s := range availableShells() {
			out = append(out, shellValue(s))
		}
		return NewListValue(out), nil
	},
	"runtime.task": func(c *Call, _ *Dict) (Value, error) {
		v, _ := c.th.in.host.LookupEnv("HARN_TASK")
		return Str(v), nil
	},
	"runtime.set_result": func(c *Call, _ *Dict) (Value, error) { return Nil, nil },
	"workspace.cwd":      func(c *Call, _ *Dict) (Value, error) { return Str(workingDir(c)), nil },
	"workspace.project_root": func(c *Call, _ *Dict) (Value, error) {
		if v, ok := c.th.in.host.LookupEnv("HARN_PROJECT_ROOT"); ok {
			return Str(v), nil
		}
		return Str(workingDir(c)), nil
	},
}

// answerHostCall answers a host operation: a matching host_mock first, then the
// built-in operations.
func answerHostCall(c *Call, name string, params *Dict) (Value, error) {
	cap, op, ok := strings.Cut(name, ".")
	if !ok {
		return Nil, throwValue(Str("host_call: unsupported operation name '" + name + "'"))
	}
	v, found, err := hostMocksOf(c).answer(cap, op, params)
	if err != nil || found {
		return v, err
	}
	if fn, ok := hostOps[name]; ok {
		return fn(c, params)
	}
	return Nil, plainError("not available in this runtime: host_call " + name + " has no host bridge in this runtime; mock it with host_mock")
}

func workingDir(c *Call) string {
	if wd := c.th.in.host.WorkDir(); wd != "" {
		return wd
	}
	return c.th.in.host.Root()
}

// shell describes a shell a command can run in.
type shell struct {
	id, path string
	args     []string // before the command: -c
	login    []string // for a login shell: -l -c
}

// knownShells are the shells looked for, in order of preference for the
// default.
var knownShells = []string{"sh", "bash", "zsh", "dash"}

func availableShells() []shell {
	var out []shell
	for _, id := range knownShells {
		if p, err := exec.LookPath(id); err == nil {
			out = append(out, shell{id: id, path: p, args: []string{"-c"}, login: []string{"-l", "-c"}})
		}
	}
	if len(out) == 0 {
		out = append(out, shell{id: "sh", path: "/bin/sh", args: []string{"-c"}, login: []string{"-l", "-c"}})
	}
	return out
}

// defaultShell is the one process.set_default_shell chose, else sh.
func defaultShell(c *Call) shell {
	return availableShells()[0]
}

func shellValue(s shell) Value {
	d := NewDict(6)
	d.Set("id", Str(s.id))
	d.Set("label", Str(s.id))
	d.Set("path", Str(s.path))
	args := make([]Value, len(s.args))
	for i, a := range s.args {
		args[i] = Str(a)
	}
	d.Set("args", NewListValue(args))
	login := make([]Value, len(s.login))
	for i, a := range s.login {
		login[i] = Str(a)
	}
	d.Set("supports_login", True)
	d.Set("login_args", NewListValue(login))
	return DictValue(d)
}

// maxProcessOutput bounds what process.exec keeps of each stream.
const maxProcessOutput = 16 << 20

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var commandSeq atomic.Int64

// processExec is host_call("process.exec", {mode, command | argv,
// shell_id, login, timeout | timeout_ms, cwd, env, env_mode}).
func processExec(c *Call, p *Dict) (Value, error) {
	in := c.th.in
	str := func(k string) string {
		if v, ok := p.Get(k); ok && v.k == KindString {
			return v.r.(string)
		}
		return ""
	}
	var name string
	var args []string
	switch mode := orDefault(str("mode"), "shell"); mode {
	case "argv":
		v, _ := p.Get("argv")
		if v.k != KindList || v.r.(*List).Len() == 0 {
			return Nil, runtimeError("host_call process.exec argv must be a non-empty list")
		}
		for _, a := range v.r.(*List).items {
			args = append(args, Display(a))
		}
		name, args = args[0], args[1:]
		if name == "" {
			return Nil, runtimeError("host_call process.exec argv[0] must not be empty")
		}
	case "shell":
		command := str("command")
		if command == "" {
			return Nil, runtimeError("host_call process.exec: command is required")
		}
		sh := defaultShell(c)
		if id := str("shell_id"); id != "" && id != sh.id {
			found := false
			for _, s := range availableShells() {
				if s.id == id {
					sh, found = s, true
				}
			}
			if !found {
				return Nil, runtimeError("host_call process.exec: unknown shell id %s", strconv.Quote(id))
			}
		}
		flags := sh.args
		if v, ok := p.Get("login"); ok && v.Truthy() {
			flags = sh.login
		}
		name, args = sh.path, append(append([]string{}, flags...), command)
	default:
		return Nil, runtimeError("host_call process.exec unsupported mode %s", strconv.Quote(mode))
	}
	var env []string
	if v, ok := p.Get("env"); ok && v.k == KindDict {
		if str("env_mode") == "merge" {
			env = in.host.Environ()
		}
		for _, k := range v.AsDict().Keys() {
			x, _ := v.AsDict().Get(k)
			env = append(env, k+"="+Display(x))
		}
		if env == nil {
			env = []string{}
		}
	}
	var timeout time.Duration
	for _, k := range []string{"timeout", "timeout_ms"} {
		if v, ok := p.Get(k); ok && (v.k == KindInt || v.k == KindFloat) {
			if ms := intArg(v, 0); ms > 0 {
				timeout = time.Duration(ms) * time.Millisecond
				break
			}
		}
	}
	runCtx := in.run.Context()
	// The run's context, not the call's: what the command leaves running
	// in the background is killed when the run ends, not when it returns.
	cmd, err := in.host.Prepare(runCtx, host.Command{Name: name, Args: args, Dir: str("cwd"), Env: env, Group: true})
	if err != nil {
		return Nil, ioError("host_call process.exec", err)
	}
	var stdout, stderr cappedBuffer
	stdout.max, stderr.max = maxProcessOutput, maxProcessOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	started := time.Now()
	timedOut := false
	var waitErr error
	c.Block(func() {
		if waitErr = host.Start(runCtx, cmd); waitErr != nil {
			return
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var expire <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			expire = t.C
		}
		select {
		case waitErr = <-done:
		case <-expire:
			timedOut = true
			_ = cmd.Cancel()
			waitErr = <-done
		case <-c.th.ctx.Done():
			_ = cmd.Cancel()
			waitErr = <-done
		}
	})
	if cmd.Process == nil {
		return Nil, runtimeError("host_call process.exec: %v", waitErr)
	}
	if c.th.ctx.Err() != nil {
		if lerr := c.th.checkLimits(); lerr != nil {
			return Nil, lerr
		}
		return Nil, plainError("Deadline exceeded")
	}
	code := 0
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		code = exitErr.ExitCode()
	} else if waitErr != nil {
		return Nil, runtimeError("host_call process.exec: %v", waitErr)
	}
	status := "completed"
	if timedOut {
		status, code = "timed_out", -1
		stdout.Reset()
		stderr.Reset()
	}
	out := strings.ToValidUTF8(stdout.String(), "\uFFFD")
	errText := strings.ToValidUTF8(stderr.String(), "\uFFFD")
	pid := Int(int64(cmd.Process.Pid))
	d := NewDict(18)
	d.Set("command_id", Str("cmd_"+strconv.Itoa(os.Getpid())+"_"+strconv.FormatInt(commandSeq.Add(1), 10)))
	d.Set("status", Str(status))
	d.Set("pid", pid)
	d.Set("process_group_id", pid)
	d.Set("handle_id", Nil)
	d.Set("started_at", Str(started.UTC().Format(time.RFC3339Nano)))
	d.Set("ended_at", Str(time.Now().UTC().Format(time.RFC3339Nano)))
	d.Set("duration_ms", Int(time.Since(started).Milliseconds()))
	d.Set("exit_code", Int(int64(code)))
	d.Set("signal", Nil)
	d.Set("timed_out", Bool(timedOut))
	d.Set("stdout", Str(out))
	d.Set("stderr", Str(errText))
	d.Set("combined", Str(out+errText))
	d.Set("exit_status", Int(int64(code)))
	d.Set("legacy_status", Int(int64(code)))
	d.Set("success", Bool(code == 0 && !timedOut))
	return DictValue(d), nil
}

// hostCallArgs builds a params dict from pairs.
func hostCallArgs(kv ...any) *Dict {
	d := NewDict(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i].(string), goValue(kv[i+1]))
	}
	return d
}

func init() {
	str := func(v Value, def string) Value {
		if v.k == KindNil {
			return Str(def)
		}
		return v
	}
	shellID := func(c *Call) (Value, error) {
		sh, err := answerHostCall(c, "process.get_default_shell", NewDict(0))
		if err != nil || sh.k != KindDict {
			return Nil, err
		}
		id, _ := sh.AsDict().Get("id")
		return id, nil
	}
	exec := func(c *Call, command Value, timeout Value) (Value, error) {
		id, err := shellID(c)
		if err != nil {
			return Nil, err
		}
		p := hostCallArgs("mode", "shell", "command", command, "shell_id", id)
		if timeout.k != KindNil {
			p.Set("timeout", timeout)
		}
		return answerHostCall(c, "process.exec", p)
	}
	RegisterStdModule("std/runtime", map[string]func(c *Call, args []Value) (Value, error){
		"runtime_task": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "runtime.task", NewDict(0))
			return str(v, ""), err
		},
		"runtime_pipeline_input": func(c *Call, args []Value) (Value, error) {
			return answerHostCall(c, "runtime.pipeline_input", NewDict(0))
		},
		"runtime_dry_run": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "runtime.dry_run", NewDict(0))
			if v.k == KindNil && err == nil {
				return False, nil
			}
			return v, err
		},
		"runtime_approved_plan": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "runtime.approved_plan", NewDict(0))
			return str(v, ""), err
		},
		"process_exec": func(c *Call, args []Value) (Value, error) {
			return exec(c, arg(args, 0), Nil)
		},
		"process_exec_with_timeout": func(c *Call, args []Value) (Value, error) {
			return exec(c, arg(args, 0), arg(args, 1))
		},
		"interaction_ask": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "interaction.ask", hostCallArgs("question", arg(args, 0)))
			return str(v, ""), err
		},
		"interaction_ask_with_kind": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "interaction.ask", hostCallArgs("question", arg(args, 0), "type", arg(args, 1)))
			return str(v, ""), err
		},
	})
}
