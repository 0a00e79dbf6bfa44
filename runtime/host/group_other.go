//go:build !unix

package host

import (
	"context"
	"os/exec"
)

// inGroup: without process groups, only the process itself is killed.
func inGroup(cmd *exec.Cmd) {}

// watchGroup: without process groups there is nothing left to kill.
func watchGroup(ctx context.Context, cmd *exec.Cmd) {}
