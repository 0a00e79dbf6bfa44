package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/memlimit"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// runFlags are the flags shared by run, test and evaluate, the run-time
// limits among them (one flag per entry of execution.Table).
type runFlags struct {
	grants  host.Grants
	noCheck bool
	seed    string
	limits  execution.Limits
}

// register adds the flags to fs; timeout is the command's default wall
// time (execution.Table's, or test's per-program default).
func (r *runFlags) register(fs *flagSet, timeout time.Duration) {
	r.grants.Register(fs.FlagSet)
	fs.BoolVar(&r.noCheck, "no-check", false, "run even when the checker reports errors")
	fs.StringVar(&r.seed, "seed", "", "seed the program's random numbers with `n` (deterministic runs)")
	r.limits = execution.Defaults()
	r.limits.Time = timeout
	for _, l := range execution.Table {
		fs.Var(limitFlag{&r.limits, l.Resource}, strings.TrimPrefix(l.Flag, "--"), strings.ReplaceAll(l.What, "`", "")+": at most `"+limitArg(l.Resource)+"` (0: no limit)")
	}
}

func (r *runFlags) env() (runner.Env, error) {
	env := runner.Env{Grants: r.grants, Limits: r.limits}
	if r.seed != "" {
		n, err := strconv.ParseUint(r.seed, 10, 64)
		if err != nil {
			return env, fmt.Errorf("--seed %q: want a non-negative integer", r.seed)
		}
		env.Seed = &n
	}
	// The Go runtime's soft memory limit leaves room for the budget: a
	// run allowed more than the CLI's default soft limit would otherwise
	// make the collector work without end.
	memlimit.Raise(r.limits.Memory)
	// A program keeps what it builds: collect at Go's default target, not
	// the batch checker's.
	memlimit.Program()
	return env, nil
}

// limitArg names a limit flag's value in usage texts.
func limitArg(r execution.Resource) string {
	switch r {
	case execution.Time:
		return "D"
	case execution.Memory:
		return "SIZE"
	}
	return "N"
}

// limitFlag is the flag of one run-time limit: a duration for Time, a
// size (8MiB, 1GiB) for Memory, a count otherwise; 0 switches it off.
type limitFlag struct {
	l *execution.Limits
	r execution.Resource
}

func (f limitFlag) String() string {
	if f.l == nil {
		return ""
	}
	v := f.l.Get(f.r)
	switch {
	case v == 0:
		return "0"
	case f.r == execution.Time:
		return execution.FormatValue(f.r, v)
	case f.r == execution.Memory:
		return strings.ReplaceAll(execution.FormatValue(f.r, v), " ", "")
	}
	return strconv.FormatInt(v, 10)
}

func (f limitFlag) Set(s string) error {
	var v int64
	var err error
	want := "a whole number"
	switch {
	case strings.TrimSpace(s) == "0":
	case f.r == execution.Time:
		want = "a duration such as 30s, 2m or 1h30m"
		var d time.Duration
		if d, err = time.ParseDuration(s); err == nil && d < 0 {
			err = errors.New("negative")
		}
		v = int64(d)
	case f.r == execution.Memory:
		want = "a size such as 512MiB or 2GiB"
		v, err = limits.ParseSize(s)
	default:
		if v, err = strconv.ParseInt(s, 10, 64); err == nil && v < 0 {
			err = errors.New("negative")
		}
	}
	if err != nil {
		return fmt.Errorf("want %s, or 0 for no limit", want)
	}
	f.l.Set(f.r, v)
	return nil
}

// admitted checks a program before it runs, as run and test do: the
// evaluation sites it admits (the checker's literal sites), and its
// report when the check finds an error. Under --no-check nothing is
// checked now: the sites are computed at the program's first evaluation.
func admitted(path string, src []byte, catalogFile string, noCheck bool) (*evaluate.Sites, *diagnostics.Report) {
	if noCheck {
		return evaluate.LoadSites(func() []evaluate.Site {
			res, _ := checkProgram(path, src, catalogFile)
			return admittedSites(res.Admitted)
		}), nil
	}
	res, report := checkProgram(path, src, catalogFile)
	return evaluate.NewSites(admittedSites(res.Admitted)), report
}

// checkProgram checks a program before it runs: the driver's whole
// result, and a report of its diagnostics when one is an error.
func checkProgram(path string, src []byte, catalogFile string) (driver.Result, *diagnostics.Report) {
	res := checks.Check(driver.Request{Path: filepath.ToSlash(path), Source: src, CatalogFile: catalogFile})
	for _, d := range res.Diagnostics {
		if d.Severity == diagnostics.Error {
			return res, &diagnostics.Report{
				Files:   []diagnostics.File{{Path: filepath.ToSlash(path), Source: src, Diagnostics: res.Diagnostics}},
				Sources: res.Sources,
			}
		}
	}
	return res, nil
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
			rf.register(fs, execution.LimitOf(execution.Time).DefaultDuration())
			replay := fs.String("llm-mock-replay", "", "replay model calls from this .llm-mock.jsonl tape `file`")
			var lf llmFlags
			lf.register(fs)
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
				return runRun(e, rest[0], progArgs, rf, *replay, &lf, ef)
			}
		},
	}
}

// runRun checks the program at path, then runs it with its output on
// stdout; an uncaught error goes to stderr with its trace and exits 1.
func runRun(e *env, path string, progArgs []string, rf runFlags, replay string, lf *llmFlags, ef evaluationFlags) int {
	lang, ok := runtimes.ForPath(path)
	if !ok {
		return fail(e, "%s: not a program of a known language (want %s)", path, strings.Join(runtimes.Extensions(), " or "))
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
	sites, report := admitted(path, src, ef.catalog, rf.noCheck)
	if report != nil {
		_ = diagnostics.RenderText(e.stderr, report, diagnostics.TextOptions{Color: e.stderrTerminal && e.getenv("NO_COLOR") == ""})
		msgf(e, "%s has errors; not running it (use --no-check to run anyway)", path)
		return exitFail
	}
	if tape := lf.tape(); tape != "" {
		if replay != "" && replay != tape {
			return fail(e, "--llm-mock %s and --llm-mock-replay %s name two tapes", tape, replay)
		}
		replay = tape
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
	var inv *catalog.Invalid
	if errors.As(err, &inv) {
		// The checker's one diagnostic, also under --no-check.
		report := &diagnostics.Report{Files: []diagnostics.File{{Path: filepath.ToSlash(path), Source: src, Diagnostics: []diagnostics.Diagnostic{inv.Diagnostic(filepath.ToSlash(path))}}}}
		_ = diagnostics.RenderText(e.stderr, report, diagnostics.TextOptions{Color: e.stderrTerminal && e.getenv("NO_COLOR") == ""})
		msgf(e, "%s: invalid route catalog; not running %s", filepath.ToSlash(inv.Path), path)
		return exitFail
	}
	if err != nil {
		return fail(e, "%v", err)
	}
	evalRun.warn = func(s string) { msgf(e, "%s", s) }
	renv.Evaluation = evalRun.opts
	renv.Evaluation.Sites = sites
	out := &flushingWriter{w: bufio.NewWriterSize(e.stdout, 64<<10), line: e.isTerminal}
	renv.Stdout = out
	renv.Stderr = e.stderr
	renv.Stdin = e.stdin
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	ended := make(chan struct{})
	defer close(ended)
	go flushOnInterrupt(ctx, ended, out, e.stderr)
	err = lang.Run(ctx, runner.Program{Path: path, Src: src, Args: progArgs}, renv)
	out.Flush()
	if ctx.Err() != nil {
		evalRun.finish(path, err)
		fmt.Fprintln(e.stderr, interruptedMessage)
		return exitInterrupted
	}
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
		msgf(e, "%v", evalErr)
		return exitFail
	}
	return exitOK
}

// exitInterrupted is the exit status of a run stopped by SIGINT or
// SIGTERM (128 + SIGINT, what a shell reports for Ctrl-C).
const exitInterrupted = 130

const interruptedMessage = "harn-check: run: interrupted"

// interruptGrace is how long an interrupted program has to unwind before
// its output is flushed and the process exits without it.
const interruptGrace = 2 * time.Second

// exitProcess ends the process; a variable so that tests can see the call.
var exitProcess = os.Exit

// flushOnInterrupt waits for ctx (cancelled by SIGINT or SIGTERM): the
// program then has interruptGrace to stop, after which what it printed
// is flushed and the process exits, so that piped output is not lost
// however the program is stuck. ended closing first ends the wait.
func flushOnInterrupt(ctx context.Context, ended <-chan struct{}, out *flushingWriter, stderr io.Writer) {
	select {
	case <-ended:
		return
	case <-ctx.Done():
	}
	select {
	case <-ended:
	case <-time.After(interruptGrace):
		out.Flush()
		fmt.Fprintln(stderr, interruptedMessage)
		exitProcess(exitInterrupted)
	}
}

// flushingWriter buffers program output: line by line on a terminal,
// in 32 KiB blocks otherwise. It is safe for the program's tasks and an
// interrupt's flush at once.
type flushingWriter struct {
	mu   sync.Mutex
	w    *bufio.Writer
	line bool
}

func (f *flushingWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := f.w.Write(p)
	if err == nil && (f.line && len(p) > 0 && p[len(p)-1] == '\n' || f.w.Buffered() > 32<<10) {
		err = f.w.Flush()
	}
	return n, err
}

// Flush writes what is buffered.
func (f *flushingWriter) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Flush()
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
