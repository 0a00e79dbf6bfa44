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
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/memlimit"
	"github.com/harnlang/harn-check/internal/version"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) int
}

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
}

func commands() []command {
	return []command{
		{"check", "check .harn and .leia files (the default command)", runCheck},
		{"parse", "print the syntax tree of files", runParse},
		{"manifest", "print the predicate-site manifests of files", runManifest},
		{"explain", "explain a diagnostic code", runExplain},
		{"fmt", "format .harn and .leia files (--check, --diff, --write)", runFmt},
		{"validate", "compile Rhai output validators and the blueprints that use them", runValidate},
		{"validate-output", "run one validator on one answer and print the verdict", runValidateOutput},
		{"llm", "llm evaluate: run or verify one decision evaluation", runLLM},
		{"run", "run a program (checked first): harn-check run [--allow-...] FILE [ARGS...]", runRun},
		{"test", "run programs against their .expected output or .error", runTest},
		{"evaluate", "run the evaluate blocks of Leia files and report: harn-check evaluate [--replay F|--record F|--mock] [--json|--format text|json|html] PATH...", runEvaluate},
		{"version", "print the version", func(e *env, _ []string) int {
			fmt.Fprintf(e.stdout, "harn-check %s\n", version.Version)
			return exitOK
		}},
	}
}

func main() {
	memlimit.Apply(memlimit.Default, memlimit.BatchGCPercent)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		isTerminal: isTerminal(os.Stdout), stderrTerminal: isTerminal(os.Stderr), getenv: os.Getenv}
	os.Exit(run(e, os.Args[1:]))
}

// isTerminal reports whether f is a terminal (not merely a character
// device such as /dev/null).
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

// run dispatches args to a subcommand; without a known subcommand name the
// arguments go to check.
func run(e *env, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(e.stdout)
			return exitOK
		case "--version", "-version":
			args[0] = "version"
		}
		for _, c := range commands() {
			if c.name == args[0] {
				return c.run(e, args[1:])
			}
		}
	}
	return runCheck(e, args)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: harn-check [command] [flags] PATH...\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-16s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'harn-check COMMAND -h' for a command's flags.\n")
}

// parseFlags parses flags and positional arguments in any order ("--"
// ends flags). It prints a one-line error for an unknown flag.
func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, bool) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(e.stdout)
				fmt.Fprintf(e.stdout, "usage: harn-check %s [flags] %s\n", fs.Name(), "ARGS...")
				fs.PrintDefaults()
				return nil, false
			}
			fmt.Fprintf(e.stderr, "harn-check %s: %v\n", fs.Name(), err)
			return nil, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, true
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// fail prints a one-line error and returns the usage exit status.
func fail(e *env, format string, a ...any) int {
	fmt.Fprintf(e.stderr, "harn-check: "+format+"\n", a...)
	return exitUsage
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
