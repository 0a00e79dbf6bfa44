package host

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Command is a process to run.
type Command struct {
	// Name is the program: a name looked up in PATH or a path.
	Name string
	Args []string
	// Dir is the working directory, relative to the program's folder;
	// "" means the program's folder.
	Dir string
	// Env replaces the environment when not nil; nil means Environ().
	Env []string
	// Stdin feeds the process; nil means no input.
	Stdin io.Reader
	// Group runs the process in a process group of its own: when ctx
	// ends the whole group is killed, the processes it left running in
	// the background included, even after the process itself returned.
	// Shell commands that start servers with `&` and long-lived servers
	// that spawn helpers use it, so nothing they start outlives the run.
	Group bool
}

// CommandResult is a finished process.
type CommandResult struct {
	Stdout, Stderr []byte
	// ExitCode is the process's exit status; -1 when it was killed by a
	// signal or by ctx.
	ExitCode int
}

// CheckExec reports whether the program may run name.
func (h *Host) CheckExec(name string) error {
	if h.grants.Exec {
		return nil
	}
	if len(h.grants.ExecNames) > 0 {
		if slices.Contains(h.grants.ExecNames, name) || slices.Contains(h.grants.ExecNames, filepath.Base(name)) && !strings.ContainsRune(name, filepath.Separator) {
			return nil
		}
		return &DeniedError{Op: "exec", Target: name, Flag: "--allow-exec=" + name,
			Reason: "only " + strings.Join(h.grants.ExecNames, ", ") + " may be run"}
	}
	return &DeniedError{Op: "exec", Target: name, Flag: "--allow-exec", Reason: "running processes is not granted"}
}

// Prepare checks the grant and builds the *exec.Cmd for c without starting
// it, for callers that stream its output or keep it running; ctx kills it.
func (h *Host) Prepare(ctx context.Context, c Command) (*exec.Cmd, error) {
	if c.Name == "" {
		return nil, errors.New("exec: empty program name")
	}
	if err := h.CheckExec(c.Name); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.Name, c.Args...)
	cmd.Dir = h.root
	if c.Dir != "" {
		cmd.Dir = h.Abs(c.Dir)
	}
	cmd.Env = c.Env
	if cmd.Env == nil {
		cmd.Env = h.Environ()
	}
	cmd.Stdin = c.Stdin
	if c.Group {
		inGroup(cmd)
	}
	return cmd, nil
}

// Start starts a command Prepare built. For a Group command it also
// arranges for the group to be killed when ctx ends, whatever is left of
// it then.
func Start(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	watchGroup(ctx, cmd)
	return nil
}

// Run runs c to completion and collects its output. A non-zero exit is
// not an error (see ExitCode); failing to start is.
func (h *Host) Run(ctx context.Context, c Command) (*CommandResult, error) {
	cmd, err := h.Prepare(ctx, c)
	if err != nil {
		return nil, err
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = Start(ctx, cmd)
	if err == nil {
		err = cmd.Wait()
	}
	res := &CommandResult{Stdout: out.Bytes(), Stderr: errOut.Bytes()}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	default:
		return nil, err
	}
	if ctx.Err() != nil && res.ExitCode == -1 {
		return res, ctx.Err()
	}
	return res, nil
}
