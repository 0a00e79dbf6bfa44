//go:build unix

package host

import (
	"context"
	"os/exec"
	"syscall"
)

// inGroup makes cmd the leader of a new process group whose members are
// all killed when the command's context is cancelled while it runs.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// watchGroup kills the process group of a started Group command when ctx
// ends, for the processes the command left running after it returned. A
// group's id stays taken while one of its members lives, so the kill
// cannot reach a group started later by someone else while the command's
// own processes are still there to be killed.
func watchGroup(ctx context.Context, cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid || cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	go func() {
		<-ctx.Done()
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}()
}
