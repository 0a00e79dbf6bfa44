package leia

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/runner"
	"time"
)

// programDir holds the self-checking programs: each asserts its own
// results and prints "ok" last.
const programDir = "../../testdata/run/leia"

func runFile(t *testing.T, path string, env runner.Env) (string, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if env.Stdout == nil {
		env.Stdout = &out
	}
	if env.Stderr == nil {
		env.Stderr = &out
	}
	if env.TempDir == "" {
		env.TempDir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = RunProgram(ctx, runner.Program{Path: path, Src: src}, env)
	return out.String(), err
}

func TestPrograms(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(programDir, "*.leia"))
	if len(files) < 15 {
		t.Fatalf("expected the feature programs in %s, found %d", programDir, len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			out, err := runFile(t, f, runner.Env{})
			if err != nil {
				msg := err.Error()
				if e, ok := err.(*Error); ok {
					msg = e.Format()
				}
				t.Fatalf("program failed:\n%s\noutput:\n%s", msg, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if lines[len(lines)-1] != "ok" {
				t.Fatalf("program did not finish with ok; output:\n%s", out)
			}
		})
	}
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestFailures runs the programs of fail/ without the checker, from
// their own folder, and checks what the CLI prints for the error: its
// NAME.error (upstream Harn's conformance format, which harn-check test
// reads: a line matching is enough) and, byte for byte, the whole text
// with its traceback in testdata/failures/NAME.golden ("exit N" for
// os.exit; -update rewrites them).
func TestFailures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(programDir, "fail", "*.leia"))
	if len(files) == 0 {
		t.Fatal("no failure programs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			spec, err := os.ReadFile(strings.TrimSuffix(f, ".leia") + ".error")
			if err != nil {
				t.Fatal(err)
			}
			// Run with the file's base name so messages are stable.
			src, _ := os.ReadFile(f)
			dir := t.TempDir()
			p := filepath.Join(dir, filepath.Base(f))
			os.WriteFile(p, src, 0o644)
			wd, _ := os.Getwd()
			os.Chdir(dir)
			defer os.Chdir(wd)
			var out bytes.Buffer
			err = RunProgram(context.Background(), runner.Program{Path: filepath.Base(f), Src: src}, runner.Env{Stdout: &out, Stderr: &out, TempDir: dir})
			if err == nil {
				t.Fatalf("program succeeded; output:\n%s", out.String())
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is %T (%v), want *Error", err, err)
			}
			got := e.Format()
			if e.Kind == KindExit {
				got = "exit " + strconv.Itoa(ExitCode(err)) + "\n"
			}
			if !runner.ErrorMatches(got, string(spec)) {
				t.Errorf("no line of %s.error matches:\n%s", strings.TrimSuffix(filepath.Base(f), ".leia"), got)
			}
			golden := filepath.Join(wd, "testdata", "failures", strings.TrimSuffix(filepath.Base(f), ".leia")+".golden")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestFailures -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func compileRun(t *testing.T, src string, opts Options, ctx context.Context) ([]Value, error) {
	t.Helper()
	in := New(opts)
	ch, err := in.Compile("test.leia", []byte(src))
	if err != nil {
		return nil, err
	}
	return in.Run(ctx, ch)
}

func TestTimeoutStopsRunawayLoop(t *testing.T) {
	for _, src := range []string{
		`for {}`,
		`func f() { return f() }; for { pcall(f) }`,
		`x := 0; loop: x++; goto loop`,
		`ch := make(chan); go func() { for {} }(); <-ch`,
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err := compileRun(t, src, Options{Stdout: &bytes.Buffer{}}, ctx)
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindCancelled {
			t.Errorf("%q: got %v, want a cancelled error", src, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q: took %v to stop", src, d)
		}
	}
}

func TestCancelFromAnotherGoroutine(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err := compileRun(t, `n := 0; for { n++ }`, Options{}, ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled in the chain", err)
	}
}

func TestStepBudget(t *testing.T) {
	_, err := compileRun(t, `for { }`, Options{Limits: execution.Limits{Steps: 100000}}, context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("got %v, want a budget error", err)
	}
	// A program under the budget finishes.
	if _, err := compileRun(t, `s := 0; for i := 1; i <= 100; i++ { s += i }; return s`, Options{Limits: execution.Limits{Steps: 100000}}, context.Background()); err != nil {
		t.Fatal(err)
	}
}

// The run's stops cannot be caught: pcall, xpcall and a coroutine's
// resume pass them on, and the run ends with them.
func TestStopsAreNotCaught(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"pcall in a loop", `for { pcall(func() { for {} }) }`},
		{"xpcall", `for { xpcall(func() { for {} }, func(e) { return e }) }`},
		{"coroutine", `for { co := coroutine.create(func() { for {} }); coroutine.resume(co) }`},
		{"pcall around a goroutine's wait", `ch := make(chan); go func() { for {} }(); for { pcall(func() { <-ch }) }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := compileRun(t, tc.src, Options{Stdout: &bytes.Buffer{}, Limits: execution.Limits{Steps: 200_000, Time: 10 * time.Second}}, context.Background())
			var e *Error
			var le *execution.LimitError
			if !errors.As(err, &e) || e.Kind != KindBudget || !errors.As(err, &le) || le.Resource != execution.Steps {
				t.Fatalf("got %v, want the step budget's stop", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestGoroutineBudget(t *testing.T) {
	_, err := compileRun(t, `for { go func() { ch := make(chan); <-ch }() }`, Options{Limits: execution.Limits{Tasks: 100, Time: 10 * time.Second}}, context.Background())
	var le *execution.LimitError
	if !errors.As(err, &le) || le.Resource != execution.Tasks || !strings.Contains(err.Error(), "raise it with --max-tasks") {
		t.Fatalf("got %v, want the task budget's stop", err)
	}
}

func TestDeadlockSaysWhereEachTaskWaits(t *testing.T) {
	src := "ch := make(chan)\ndone := make(chan)\ngo func() {\n  <-ch\n}()\n<-done\n"
	_, err := compileRun(t, src, Options{Limits: execution.Limits{Time: 10 * time.Second}}, context.Background())
	var de *execution.DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a deadlock", err)
	}
	want := []string{"goroutine 1: receive from a channel at test.leia:4:3", "main program: receive from a channel at test.leia:6:1 in main chunk"}
	if len(de.Waits) != 2 || !strings.HasPrefix(de.Waits[0], want[0]) || de.Waits[1] != want[1] {
		t.Errorf("waits %q, want %q", de.Waits, want)
	}
	// A pending timer is not a deadlock.
	if _, err := compileRun(t, `ch := make(chan); go func() { time.sleep(0.05); ch <- 1 }(); <-ch`, Options{Limits: execution.Limits{Time: 10 * time.Second}}, context.Background()); err != nil {
		t.Errorf("a sleeping sender was taken for a deadlock: %v", err)
	}
}

func TestDeepNestingIsAnError(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000),
		"x := " + strings.Repeat("-", 20000) + "1",
		strings.Repeat("if true {", 3000) + strings.Repeat("}", 3000),
		"return " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000),
	} {
		_, err := compileRun(t, src, Options{}, context.Background())
		if err == nil {
			t.Errorf("nesting of %d bytes compiled and ran without error", len(src))
		}
	}
}

func TestDeepRecursionIsAnError(t *testing.T) {
	_, err := compileRun(t, `func f(n) { return f(n + 1) + 1 }; return f(1)`, Options{Limits: execution.Limits{Depth: 5000}}, context.Background())
	if err == nil || !strings.Contains(err.Error(), "stack overflow") {
		t.Fatalf("got %v, want stack overflow", err)
	}
	// Recursion through metamethods and pcall is bounded too.
	_, err = compileRun(t, `t := setmetatable({}, {}); getmetatable(t).__index = func(s, k) { return s[k] }; return t.x`, Options{Limits: execution.Limits{Depth: 5000}}, context.Background())
	if err == nil || !strings.Contains(err.Error(), "stack overflow") {
		t.Fatalf("got %v, want stack overflow", err)
	}
}

// TestNoHostDeniesFiles: without a host nothing touches the file system.
func TestNoHostDeniesFiles(t *testing.T) {
	rets, err := compileRun(t, `f, err := io.open("/etc/passwd"); return f, err, os.getenv("HOME")`, Options{}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rets[0].k != KindNil || !strings.Contains(rets[1].AsString(), "not available") || rets[2].k != KindNil {
		t.Fatalf("got %v %v %v", rets[0], rets[1].AsString(), rets[2])
	}
}

// TestHostDeniesOutsideFolder: with a host, files outside the program's
// folder and the temp dir need --allow-fs.
func TestHostDeniesOutsideFolder(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("s3cret"), 0o644)
	prog := filepath.Join(dir, "p.leia")
	src := `data, err := fs.readFile(arg[1])
assert(data == nil, "read outside the folder")
assert(string.find(err, "allow%-fs"), err)
f, err2 := io.open(arg[1])
assert(f == nil && string.find(err2, "allow%-fs"), err2)
ok := fs.writeFile("inside.txt", "x")
assert(ok == true)
print("ok")`
	os.WriteFile(prog, []byte(src), 0o644)
	var out bytes.Buffer
	err := RunProgram(context.Background(), runner.Program{Path: prog, Src: []byte(src), Args: []string{secret}}, runner.Env{Stdout: &out, Stderr: &out, TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "inside.txt")); err != nil {
		t.Fatal("write inside the program folder did not happen")
	}
}

// TestExtensionsWrapRuns: an extension prepares the interpreter before
// the program compiles and its finish sees the run's error.
func TestExtensionsWrapRuns(t *testing.T) {
	var finished error
	ext := func(in *Interp, p runner.Program, env runner.Env) (func(error) error, error) {
		in.Register("ext_marker", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(String("ext")), nil })
		return func(err error) error { finished = err; return err }, nil
	}
	dir := t.TempDir()
	src := []byte(`assert(ext_marker() == "ext"); error("stop")`)
	p := filepath.Join(dir, "x.leia")
	os.WriteFile(p, src, 0o644)
	err := RunProgramWith(context.Background(), runner.Program{Path: p, Src: src}, runner.Env{Stdout: io.Discard, Stderr: io.Discard}, ext)
	if err == nil || finished != err || !strings.Contains(err.Error(), "stop") {
		t.Fatalf("run error %v, finish saw %v", err, finished)
	}
}

// TestNetworkNeedsGrant: http and net go through the host, which refuses
// without --allow-net.
func TestNetworkNeedsGrant(t *testing.T) {
	dir := t.TempDir()
	src := []byte(`r, err := http.get("http://127.0.0.1:9/x")
assert(r == nil, "request went out")
assert(string.find(err, "allow%-net"), err)
print("ok")`)
	p := filepath.Join(dir, "n.leia")
	os.WriteFile(p, src, 0o644)
	var out bytes.Buffer
	if err := RunProgram(context.Background(), runner.Program{Path: p, Src: src}, runner.Env{Stdout: &out, Stderr: &out}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
