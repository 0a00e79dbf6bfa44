package harn

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
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
		d := NewDict(2)
		d.Set("shells", NewListValue(out))
		d.Set("default_shell_id", Str(defaultShell(c).id))
		return DictValue(d), nil
	},
	"process.set_default_shell": func(c *Call, p *Dict) (Value, error) {
		id := orDefault(dictString(p, "shell_id"), dictString(p, "id"))
		if id == "" {
			return Nil, runtimeError("process.set_default_shell missing shell_id")
		}
		sh, err := shellByID(id)
		if err != nil {
			return Nil, runtimeError("process.set_default_shell: %v", err)
		}
		ch := c.th.in.State("default_shell", func() any { return &shellChoice{} }).(*shellChoice)
		ch.mu.Lock()
		ch.id = id
		ch.mu.Unlock()
		return shellValue(sh), nil
	},
	"process.shell_invocation": func(c *Call, p *Dict) (Value, error) {
		sh, argv, err := shellInvocation(c, p)
		if err != nil {
			return Nil, runtimeError("process.shell_invocation: %v", err)
		}
		args := make([]Value, len(argv))
		for i, a := range argv {
			args[i] = Str(a)
		}
		d := NewDict(4)
		d.Set("program", Str(sh.path))
		d.Set("args", NewListValue(args))
		d.Set("command_arg_index", Int(int64(len(argv)-1)))
		d.Set("shell", shellValue(sh))
		return DictValue(d), nil
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

// shellChoice is the run's default shell, once process.set_default_shell
// chose one.
type shellChoice struct {
	mu sync.Mutex
	id string
}

// defaultShell is the one process.set_default_shell chose, else the first
// found (sh).
func defaultShell(c *Call) shell {
	all := availableShells()
	ch := c.th.in.State("default_shell", func() any { return &shellChoice{} }).(*shellChoice)
	ch.mu.Lock()
	id := ch.id
	ch.mu.Unlock()
	for _, s := range all {
		if s.id == id {
			return s
		}
	}
	return all[0]
}

// shellByID finds an available shell.
func shellByID(id string) (shell, error) {
	for _, s := range availableShells() {
		if s.id == id {
			return s, nil
		}
	}
	return shell{}, fmt.Errorf("unknown or unavailable shell id %s", strconv.Quote(id))
}

func shellValue(s shell) Value {
	list := func(xs []string) Value {
		out := make([]Value, len(xs))
		for i, a := range xs {
			out[i] = Str(a)
		}
		return NewListValue(out)
	}
	d := NewDict(10)
	d.Set("id", Str(s.id))
	d.Set("label", Str(s.id))
	d.Set("path", Str(s.path))
	d.Set("platform", Str(goruntime.GOOS))
	d.Set("available", True)
	d.Set("supports_login", True)
	d.Set("supports_interactive", True)
	d.Set("default_args", list(s.args))
	d.Set("login_args", list(s.login))
	d.Set("source", Str("path"))
	return DictValue(d)
}

// shellInvocation is how a shell command runs: {mode, shell_id | shell,
// command, login, interactive} to the program and its arguments, the
// command last.
func shellInvocation(c *Call, p *Dict) (shell, []string, error) {
	sh := defaultShell(c)
	if id := dictString(p, "shell_id"); id != "" {
		var err error
		if sh, err = shellByID(id); err != nil {
			return sh, nil, err
		}
	} else if v, ok := p.Get("shell"); ok && v.k == KindDict {
		if path := dictString(v.AsDict(), "path"); path != "" {
			sh = shell{id: orDefault(dictString(v.AsDict(), "id"), filepath.Base(path)), path: path, args: []string{"-c"}, login: []string{"-l", "-c"}}
		}
	}
	args := sh.args
	if v, ok := p.Get("login"); ok && v.Truthy() {
		args = sh.login
	}
	args = append([]string{}, args...)
	if v, ok := p.Get("interactive"); ok && v.Truthy() {
		args = append([]string{"-i"}, args...)
	}
	command := "{command}"
	if v, ok := p.Get("command"); ok && v.k == KindString {
		command = v.AsString()
	}
	return sh, append(args, command), nil
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
		if str("command") == "" {
			return Nil, runtimeError("host_call process.exec: command is required")
		}
		sh, argv, err := shellInvocation(c, p)
		if err != nil {
			return Nil, runtimeError("host_call process.exec: %v", err)
		}
		name, args = sh.path, argv
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
			if ms := IntArg(v, 0); ms > 0 {
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

func installRuntime(lib *Library) {
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
	lib.StdModule("std/runtime", map[string]func(c *Call, args []Value) (Value, error){
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
			return exec(c, Arg(args, 0), Nil)
		},
		"process_exec_with_timeout": func(c *Call, args []Value) (Value, error) {
			return exec(c, Arg(args, 0), Arg(args, 1))
		},
		"interaction_ask": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "interaction.ask", hostCallArgs("question", Arg(args, 0)))
			return str(v, ""), err
		},
		"record_run_metadata": recordRunMetadata,
		"interaction_ask_with_kind": func(c *Call, args []Value) (Value, error) {
			v, err := answerHostCall(c, "interaction.ask", hostCallArgs("question", Arg(args, 0), "type", Arg(args, 1)))
			return str(v, ""), err
		},
	})
}

// member reads a dict's field, nil for anything else.
func member(v Value, k string) Value {
	if v.k != KindDict {
		return Nil
	}
	x, _ := v.AsDict().Get(k)
	return x
}

// recordRunMetadata is record_run_metadata(run, workflow_name): for a run
// persisted at a path, host_call("runtime.record_run", ...) with its
// status, usage and transcript counts; nothing for a run without a path.
func recordRunMetadata(c *Call, args []Value) (Value, error) {
	run := Arg(args, 0)
	path := member(run, "path")
	if !path.Truthy() {
		return Nil, nil
	}
	t := member(run, "transcript")
	count := func(fn string) (Value, error) {
		if t.k == KindNil {
			return Int(0), nil
		}
		v, err := callBuiltin(c, fn, t)
		if err != nil {
			return Nil, err
		}
		return Int(int64(valueLen(v))), nil
	}
	summary := Nil
	if t.k != KindNil {
		var err error
		if summary, err = callBuiltin(c, "transcript_summary", t); err != nil {
			return Nil, err
		}
	}
	p := hostCallArgs("workflow", Arg(args, 1), "path", path, "status", orNil(member(run, "status"), Str("")),
		"fixture_type", member(member(member(run, "run"), "replay_fixture"), "_type"), "usage", member(run, "usage"),
		"persisted_path", member(run, "persisted_path"), "summary", summary,
		"transcript_state", orNil(member(t, "state"), Str("")))
	for k, fn := range map[string]string{"message_count": "transcript_messages", "event_count": "transcript_events", "asset_count": "transcript_assets"} {
		n, err := count(fn)
		if err != nil {
			return Nil, err
		}
		p.Set(k, n)
	}
	_, err := answerHostCall(c, "runtime.record_run", p)
	return Nil, err
}

// valueLen is the length of a list, dict or string; 0 otherwise.
func valueLen(v Value) int {
	switch v.k {
	case KindList:
		return v.r.(*List).Len()
	case KindDict:
		return v.AsDict().Len()
	case KindString:
		return len(v.AsString())
	}
	return 0
}
