package main

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/execution"
)

// TestLimitFlagsHelp: run -h names each limit flag's argument as the
// README does (--timeout D, --max-memory SIZE, ...). The flag package
// takes a usage's first back-quoted word as the argument's name, and the
// timeout's description quotes `test` before its own `D`.
func TestLimitFlagsHelp(t *testing.T) {
	_, out, stderr := runCLI(t, "run", "-h")
	help := out + stderr
	for _, l := range execution.Table {
		want := l.Flag + " " + limitArg(l.Resource) + " "
		if !strings.Contains(help, want) {
			t.Errorf("run -h lacks %q:\n%s", want, help)
		}
	}
}
