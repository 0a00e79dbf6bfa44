package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/runtimes"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

func init() {
	runtimes.Register()
}

// runFlags are the flags shared by run and test.
type runFlags struct {
	grants   host.Grants
	noCheck  bool
	seed     string
	maxSteps int64
}

func (r *runFlags) register(fs *flagSet) {
	r.grants.Register(fs.FlagSet)
	fs.BoolVar(&r.noCheck, "no-check", false, "run even when the checker reports errors")
	fs.StringVar(&r.seed, "seed", "", "seed the program's random numbers with `n` (deterministic runs)")
	fs.Int64Var(&r.maxSteps, "max-steps", 0, "stop a program after `n` loop iterations and calls (0: no limit)")
}

func (r *runFlags) env() (runner.Env, error) {
	env := runner.Env{Grants: r.grants, MaxSteps: r.maxSteps}
	if r.seed != "" {
		n, err := strconv.ParseUint(r.seed, 10, 64)
		if err != nil {
			return env, fmt.Errorf("--seed %q: want a non-negative integer", r.seed)
		}
		env.Seed = &n
	}
	return env, nil
}

// checkErrors runs the checker on one program through the driver and
// returns its report when it has error diagnostics.
func checkErrors(path string, src []byte) *diagnostics.Report {
	res := driver.Check(driver.Request{Path: filepath.ToSlash(path), Source: src})
	for _, d := range res.Diagnostics {
		if d.Severity == diagnostics.Error {
			return &diagnostics.Report{
				Files:   []diagnostics.File{{Path: filepath.ToSlash(path), Source: src, Diagnostics: res.Diagnostics}},
				Sources: res.Sources,
			}
		}
	}
	return nil
}

func runCommand() *command {
	return &command{
		name: "run", args: "FILE [-- ARGS...]", summary: "check a program, then run it",
		about: `FILE is a .harn or .leia program; it is checked first (--no-check skips that).
The arguments after --, and any other word after FILE, are the program's argv,
as in upstream's harn run script.harn -- a b c; flags of harn-check may come
anywhere before --. Output goes to stdout; an uncaught error to stderr with
its trace (exit 1); os.exit(n) exits n.`,
		setup: func(fs *flagSet) action {
			var rf runFlags
			rf.register(fs)
			replay := fs.String("llm-mock-replay", "", "replay model calls from this .llm-mock.jsonl tape `file`")
			var lf llmFlags
			lf.register(fs)
			timeout := fs.Duration("timeout", 0, "stop the program after this `duration` (0: no limit)")
			var ef evaluationFlags
			ef.register(fs)
			return func(e *env, rest []string) int {
				if len(rest) == 0 {
					return fail(e, "no program given (usage: harn-check run [FLAGS] FILE [-- ARGS...])")
				}
				// The program's arguments: the words after FILE, "--" left out.
				var progArgs []string
				if fs.dash >= 1 {
					progArgs = append(slices.Clone(rest[1:fs.dash]), rest[fs.dash:]...)
				} else {
					progArgs = rest[1:]
				}
				return runRun(e, rest[0], progArgs, rf, *replay, &lf, *timeout, ef)
			}
		},
	}
}

// runRun checks the program at path, then runs it with its output on
// stdout; an uncaught error goes to stderr with its trace and exits 1.
func runRun(e *env, path string, progArgs []string, rf runFlags, replay string, lf *llmFlags, timeout time.Duration, ef evaluationFlags) int {
	lang, ok := runner.Lookup(path)
	if !ok {
		return fail(e, "%s: not a program of a known language (want %s)", path, strings.Join(runner.Extensions(), " or "))
	}
	// A pipe, device or huge file is refused before it is read.
	src, err := sourcefs.Read(path, 0)
	if err != nil {
		return fail(e, "%s: %s", path, sourcefs.Reason(err))
	}
	renv, err := rf.env()
	if err != nil {
		return fail(e, "%v", err)
	}
	if !rf.noCheck {
		if report := checkErrors(path, src); report != nil {
			_ = diagnostics.RenderText(e.stderr, report, diagnostics.TextOptions{Color: e.stderrTerminal && e.getenv("NO_COLOR") == ""})
			fmt.Fprintf(e.stderr, "harn-check: run: %s has errors; not running it (use --no-check to run anyway)\n", path)
			return exitFail
		}
	}
	if replay != "" {
		if _, err := os.Stat(replay); err != nil {
			return fail(e, "--llm-mock-replay %s: %v", replay, unwrapPath(err))
		}
		renv.LLMMockReplay = replay
	}
	if renv.LLM, err = lf.config(); err != nil {
		return fail(e, "%v", err)
	}
	defer lf.close()
	evalRun, err := ef.setup(path)
	if err != nil {
		return fail(e, "%v", err)
	}
	renv.Evaluation = evalRun.opts
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	renv.Stdout = &flushingWriter{w: out, line: e.isTerminal}
	renv.Stderr = e.stderr
	renv.Stdin = e.stdin
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	err = lang.Run(ctx, runner.Program{Path: path, Src: src, Args: progArgs}, renv)
	out.Flush()
	evalErr := evalRun.finish(path, err)
	if err != nil {
		io.WriteString(e.stderr, runner.FormatError(err))
		// A program's own exit status (Leia's os.exit(n)) is kept.
		var ec interface{ ExitCode() int }
		if errors.As(err, &ec) {
			return ec.ExitCode()
		}
		return exitFail
	}
	if evalErr != nil {
		fmt.Fprintf(e.stderr, "harn-check: run: %v\n", evalErr)
		return exitFail
	}
	return exitOK
}

// flushingWriter buffers program output: line by line on a terminal,
// in 32 KiB blocks otherwise.
type flushingWriter struct {
	w    *bufio.Writer
	line bool
}

func (f *flushingWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil && (f.line && len(p) > 0 && p[len(p)-1] == '\n' || f.w.Buffered() > 32<<10) {
		err = f.w.Flush()
	}
	return n, err
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
