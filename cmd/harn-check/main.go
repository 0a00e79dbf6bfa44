// Command harn-check checks Harn (.harn) and Leia (.leia) programs: it
// reports broken model-evaluation sites and other contract violations in
// text, JSON, SARIF or GitHub annotations, explains every diagnostic code,
// prints syntax trees and site manifests, and compiles Rhai output
// validators.
//
// Exit status: 0 when no error-severity diagnostic was reported, 1 when at
// least one was, 2 for a usage error, an unreadable path or an internal
// failure.
//
// The command holds flags and wiring only; the work happens in the driver,
// diagnostics and checker packages.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/memlimit"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// env carries the process's streams so commands can be tested in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTerminal and stderrTerminal report whether stdout and stderr are
	// terminals.
	isTerminal, stderrTerminal bool
	getenv                     func(string) string
	// cacheDir overrides the default cache directory ("" = the user cache
	// directory); tests point it at a temporary directory.
	cacheDir string
	// cmd is the running command's name ("check", "llm evaluate"), which
	// every error message starts with.
	cmd string
	// format is the output format the command line asks for ("json",
	// "sarif", ...), so that a usage error is reported in it too.
	format string
}

func main() {
	memlimit.Apply(memlimit.Default, memlimit.BatchGCPercent)
	memlimit.HeapFloor(memlimit.BatchHeapFloor, memlimit.BatchGCPercent)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		isTerminal: isTerminal(os.Stdout), stderrTerminal: isTerminal(os.Stderr), getenv: os.Getenv}
	os.Exit(run(e, os.Args[1:]))
}

// isTerminal reports whether f is a terminal (not merely a character
// device such as /dev/null).
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

// driverError converts a driver error into the exit status and message.
func driverError(e *env, err error) int {
	var ue *driver.UsageError
	if errors.As(err, &ue) {
		return fail(e, "%s", ue.Msg)
	}
	return fail(e, "internal error: %s", strings.TrimSpace(err.Error()))
}

// printJSON writes v to stdout as two-space indented JSON without HTML
// escaping, the form of every JSON document the CLI prints.
func printJSON(e *env, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.stdout.Write(b.Bytes())
	return err
}
