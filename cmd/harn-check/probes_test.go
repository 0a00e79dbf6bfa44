package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hostile-input probes (issue #19): each runs harn-check as a child
// process on one hostile or huge input and checks that it ends with the
// right answer (exit status, the diagnostic that says what happened, the
// result a correct checker gives), in bounded memory, without a Go panic,
// a signal or a stack trace reaching the user.
//
// Memory is asserted (peak RSS under probeMaxRSS): it does not depend on
// machine load. Time is not asserted by default (the machine is shared):
// every probe is killed after probeTimeout, which catches a hang, and its
// wall time is logged; -probes.strict also fails a probe slower than
// probeStrictTime, for measuring on a quiet machine:
//
//	go test ./cmd/harn-check -run TestProbes -v -probes.strict
var probesStrict = flag.Bool("probes.strict", false, "fail a probe that takes longer than 5 s")

const (
	probeTimeout    = 120 * time.Second
	probeStrictTime = 5 * time.Second
	probeMaxRSS     = 500 << 20 // bytes
	// probeMaxOutput caps what a probe may print; a renderer that
	// reprints huge lines would otherwise fill the disk.
	probeMaxOutput = 32 << 20
	// probeSecret is put into the child's environment; no probe output
	// may contain it.
	probeSecret = "PROBE_SECRET_VALUE_8d1f0c"
)

// TestMain lets the probes run this binary's main as the child process.
func TestMain(m *testing.M) {
	if os.Getenv("HARN_CHECK_PROBE_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// probe is one hostile input.
type probe struct {
	name string
	// setup writes the input into dir (the child's working directory) and
	// returns the arguments.
	setup func(t *testing.T, dir string) []string
	// subdir, when set, is the child's working directory below dir.
	subdir string
	// exit is the expected exit status.
	exit int
	// check inspects the outputs; dir is the working directory.
	check func(t *testing.T, dir, stdout, stderr string)
}

// probeResult is what running a probe measured.
type probeResult struct {
	exit           int
	stdout, stderr string
	wall, cpu      time.Duration
	maxRSS         int64 // bytes
}

// capped is a writer that keeps at most max bytes and counts the rest.
type capped struct {
	buf      bytes.Buffer
	max      int
	overflow int64
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	if len(p) > c.max-c.buf.Len() {
		c.overflow += int64(len(p) - max(0, c.max-c.buf.Len()))
	}
	return len(p), nil
}

// runProbe runs harn-check with args in dir as a child process.
func runProbe(t *testing.T, dir string, args []string, stdin string) probeResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HARN_CHECK_PROBE_MAIN=1", "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"),
		"HOME="+dir, "PROBE_SECRET="+probeSecret, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb = &capped{max: probeMaxOutput}, &capped{max: probeMaxOutput}
	cmd.Stdout, cmd.Stderr = out, errb
	start := time.Now()
	err := cmd.Run()
	res := probeResult{wall: time.Since(start), stdout: out.buf.String(), stderr: errb.buf.String()}
	if ctx.Err() != nil {
		t.Fatalf("did not end within %v (a hang): %v", probeTimeout, err)
	}
	if cmd.ProcessState == nil {
		t.Fatalf("did not run: %v", err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.maxRSS = ru.Maxrss * 1024
	}
	res.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("killed by signal %v\n%s", ws.Signal(), tail(res.stderr))
	}
	res.exit = cmd.ProcessState.ExitCode()
	if out.overflow > 0 || errb.overflow > 0 {
		t.Errorf("printed more than %d MiB (%d bytes over)", probeMaxOutput>>20, out.overflow+errb.overflow)
	}
	return res
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// checkProbe applies the checks every probe shares.
func checkProbe(t *testing.T, name string, p probe, dir string, r probeResult) {
	t.Helper()
	t.Logf("probe %-34s exit %d  %7.2f s wall %7.2f s cpu  %6.1f MiB peak", name, r.exit, r.wall.Seconds(), r.cpu.Seconds(), float64(r.maxRSS)/(1<<20))
	for _, bad := range []string{"panic:", "goroutine ", "fatal error:", "SIGSEGV", "runtime error:"} {
		if strings.Contains(r.stderr, bad) || strings.Contains(r.stdout, bad) {
			t.Fatalf("a crash reached the user (%q):\n%s", bad, tail(r.stderr))
		}
	}
	if strings.Contains(r.stdout, probeSecret) || strings.Contains(r.stderr, probeSecret) {
		t.Errorf("the environment's secret was printed")
	}
	if r.maxRSS > probeMaxRSS {
		t.Errorf("peak memory %.0f MiB, over the %d MiB bound", float64(r.maxRSS)/(1<<20), probeMaxRSS>>20)
	}
	if *probesStrict && r.wall > probeStrictTime {
		t.Errorf("took %v, over %v", r.wall.Round(time.Millisecond), probeStrictTime)
	}
	if r.exit != p.exit {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.exit, p.exit, tail(r.stdout), tail(r.stderr))
	}
	if p.check != nil {
		p.check(t, dir, r.stdout, r.stderr)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// nested returns open + inner + close with open and close repeated n times.
func nested(prefix, open, inner, close, suffix string, n int) []byte {
	var b bytes.Buffer
	b.Grow(len(prefix) + n*(len(open)+len(close)) + len(inner) + len(suffix))
	b.WriteString(prefix)
	for range n {
		b.WriteString(open)
	}
	b.WriteString(inner)
	for range n {
		b.WriteString(close)
	}
	b.WriteString(suffix)
	return b.Bytes()
}

func randomBytes(seed uint64, n int, alphabet string) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]byte, n)
	for i := range out {
		if alphabet == "" {
			out[i] = byte(r.Uint32())
		} else {
			out[i] = alphabet[r.IntN(len(alphabet))]
		}
	}
	return out
}

// importChain writes n modules m0..m(n-1) into dir, each importing the
// next; the last one has an undefined name.
func importChain(t *testing.T, dir string, n int) {
	t.Helper()
	for i := range n {
		var src string
		if i < n-1 {
			src = fmt.Sprintf("import {f%d} from \"./m%d\"\n\npub fn f%d() -> int { return f%d() }\n", i+1, i+1, i, i+1)
		} else {
			src = fmt.Sprintf("pub fn f%d() -> int { return undefined_name }\n", i)
		}
		write(t, filepath.Join(dir, fmt.Sprintf("m%d.harn", i)), []byte(src))
	}
}

func contains(want ...string) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, stdout, stderr string) {
		t.Helper()
		all := stdout + stderr
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("output lacks %q:\nstdout: %s\nstderr: %s", w, tail(stdout), tail(stderr))
			}
		}
	}
}

// jsonReport decodes the --json envelope.
type jsonReport struct {
	OK   bool `json:"ok"`
	Data struct {
		Files []struct {
			Path        string           `json:"path"`
			Status      string           `json:"status"`
			Diagnostics []jsonDiagnostic `json:"diagnostics"`
		} `json:"files"`
	} `json:"data"`
}

type jsonDiagnostic struct {
	Source   string `json:"source"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

func decodeReport(t *testing.T, stdout string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, tail(stdout))
	}
	return r
}

func probes() []probe {
	harnParens := func(n int) []byte { return nested("fn main() {\n  const x = ", "(", "1", ")", "\n  log(x)\n}\n", n) }
	return []probe{
		{
			name: "parse-sexp-deep-harn",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "deep.harn"), harnParens(30000))
				return []string{"parse", "--sexp", "deep.harn"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				if !strings.HasPrefix(stdout, "(source_file") || strings.Count(stdout, "(") != strings.Count(stdout, ")") ||
					strings.Count(stdout, "(parenthesized_expression") != 30000 {
					t.Errorf("the S-expression is not the whole tree (%d bytes)", len(stdout))
				}
				contains("error[HARN-LIM-002]", "nested")(t, dir, "", stderr)
			},
		},
		{
			name: "parse-sexp-deep-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "deep.leia"), nested("x := ", "(", "1", ")", "\nprint(x)\n", 30000))
				return []string{"parse", "--sexp", "deep.leia"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				if !strings.HasPrefix(stdout, "(source_file") || strings.Count(stdout, "(") != strings.Count(stdout, ")") ||
					strings.Count(stdout, "(parenthesized_expression") != 30000 {
					t.Errorf("the S-expression is not the whole tree (%d bytes)", len(stdout))
				}
				contains("error[HARN-LIM-002]")(t, dir, "", stderr)
			},
		},
		{
			name: "check-nesting-1m",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "deep.harn"), harnParens(1000000))
				write(t, filepath.Join(dir, "deep.leia"), nested("x := ", "[", "1", "]", "\n", 1000000))
				return []string{"--no-cache", "deep.harn", "deep.leia"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-LIM-002": 2}),
		},
		{
			name: "nested-if-100k",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "ifs.harn"), nested("fn main(a: bool) {\n", "if a {\n", "log(1)\n", "}\n", "}\n", 100000))
				return []string{"--no-cache", "ifs.harn"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-LIM-002": 1}),
		},
		{
			name: "nested-if-1500-under-limit",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "ifs.harn"), nested("fn main(a: bool) -> int {\n", "if a {\n", "return 1\n", "}\n", "return 0\n}\n", 1500))
				return []string{"--no-cache", "ifs.harn"}
			},
			exit:  exitOK,
			check: contains("no problems found"),
		},
		{
			name: "fifo-named",
			setup: func(t *testing.T, dir string) []string {
				mkfifo(t, filepath.Join(dir, "pipe.harn"))
				return []string{"--no-cache", "pipe.harn"}
			},
			exit:  exitUsage,
			check: contains("pipe.harn: not a regular file: it is a named pipe (FIFO)"),
		},
		{
			name: "fifo-in-folder",
			setup: func(t *testing.T, dir string) []string {
				mkfifo(t, filepath.Join(dir, "src", "pipe.harn"))
				write(t, filepath.Join(dir, "src", "ok.harn"), []byte("fn main() {}\n"))
				return []string{"--no-cache", "--json", "src"}
			},
			exit: exitOK,
			check: func(t *testing.T, dir, stdout, stderr string) {
				r := decodeReport(t, stdout)
				if len(r.Data.Files) != 2 || r.Data.Files[1].Path != "src/pipe.harn" ||
					len(r.Data.Files[1].Diagnostics) != 1 || r.Data.Files[1].Diagnostics[0].Code != "HARN-IO-003" ||
					r.Data.Files[1].Diagnostics[0].Severity != "warning" || r.Data.Files[0].Status != "ok" {
					t.Errorf("the pipe must be reported as skipped and the file checked:\n%s", stdout)
				}
			},
		},
		{
			name: "parse-fifo",
			setup: func(t *testing.T, dir string) []string {
				mkfifo(t, filepath.Join(dir, "pipe.harn"))
				return []string{"parse", "pipe.harn"}
			},
			exit:  exitUsage,
			check: contains("not a regular file"),
		},
		{
			name: "devices-named",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/dev/zero", filepath.Join(dir, "zero.harn"))
				return []string{"--no-cache", "zero.harn"}
			},
			exit:  exitUsage,
			check: contains("zero.harn: not a regular file: it is a character device"),
		},
		{
			name: "devices-in-folder",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/dev/zero", filepath.Join(dir, "src", "zero.harn"))
				symlink(t, "/dev/urandom", filepath.Join(dir, "src", "random.leia"))
				write(t, filepath.Join(dir, "src", "ok.harn"), []byte("fn main() {}\n"))
				return []string{"--no-cache", "src"}
			},
			exit:  exitOK,
			check: countCodes(map[string]int{"HARN-IO-003": 2}),
		},
		{
			name: "environ-named",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/proc/self/environ", filepath.Join(dir, "env.harn"))
				return []string{"--no-cache", "env.harn"}
			},
			exit:  exitUsage,
			check: contains("env.harn: not a regular file: it is a file on a pseudo file system (proc)"),
		},
		{
			name: "environ-in-folder",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/proc/self/environ", filepath.Join(dir, "src", "env.harn"))
				symlink(t, "/proc/self/environ", filepath.Join(dir, "src", "env.leia"))
				return []string{"--no-cache", "--format", "sarif", "src"}
			},
			exit:  exitOK,
			check: contains(`"HARN-IO-003"`),
		},
		{
			name: "environ-imported",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/proc/self/environ", filepath.Join(dir, "env.harn"))
				write(t, filepath.Join(dir, "main.harn"), []byte("import {x} from \"./env\"\n\nfn main() { log(x) }\n"))
				return []string{"--no-cache", "main.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-MOD-001", "which is not a Harn module (the file is not read)"),
		},
		{
			name: "link-out-of-folder",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "secret.harn"), []byte("fn main() { log(\""+probeSecret+"\" + nope) }\n"))
				symlink(t, filepath.Join(dir, "elsewhere", "secret.harn"), filepath.Join(dir, "src", "x.harn"))
				write(t, filepath.Join(dir, "src", "ok.harn"), []byte("fn main() {}\n"))
				return []string{"--no-cache", "src"}
			},
			exit:  exitOK,
			check: countCodes(map[string]int{"HARN-IO-004": 1}),
		},
		{
			name: "link-loop-in-folder",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "b.harn", filepath.Join(dir, "src", "a.harn"))
				symlink(t, "a.harn", filepath.Join(dir, "src", "b.harn"))
				symlink(t, "..", filepath.Join(dir, "src", "up"))
				write(t, filepath.Join(dir, "src", "ok.harn"), []byte("fn main() {}\n"))
				return []string{"--no-cache", "src"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-IO-001": 2}),
		},
		{
			name: "validate-devices-and-environ",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/dev/zero", filepath.Join(dir, "v", "zero.rhai"))
				symlink(t, "/dev/urandom", filepath.Join(dir, "v", "random.rhai"))
				symlink(t, "/proc/self/environ", filepath.Join(dir, "v", "env.rhai"))
				mkfifo(t, filepath.Join(dir, "v", "pipe.rhai"))
				write(t, filepath.Join(dir, "v", "ok.rhai"), []byte("fn validate(content) { () }\n"))
				return []string{"validate", "v"}
			},
			exit:  exitOK,
			check: countCodes(map[string]int{"HARN-IO-003": 4}),
		},
		{
			name: "validate-environ-named",
			setup: func(t *testing.T, dir string) []string {
				symlink(t, "/proc/self/environ", filepath.Join(dir, "env.rhai"))
				return []string{"validate", "env.rhai"}
			},
			exit:  exitUsage,
			check: contains("not a regular file"),
		},
		{
			name: "validate-output-devices",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "v.rhai"), []byte("fn validate(content) { () }\n"))
				symlink(t, "/dev/zero", filepath.Join(dir, "answer.json"))
				return []string{"validate-output", "--validator", "v.rhai", "--content", "answer.json"}
			},
			exit:  exitUsage,
			check: contains("not a regular file"),
		},
		{
			name: "union-50k",
			setup: func(t *testing.T, dir string) []string {
				var b strings.Builder
				b.WriteString("type T = ")
				for i := range 50000 {
					if i > 0 {
						b.WriteString(" | ")
					}
					fmt.Fprintf(&b, "\"m%d\"", i)
				}
				b.WriteString("\n\nfn main(t: T) { log(t) }\n")
				write(t, filepath.Join(dir, "union.harn"), []byte(b.String()))
				return []string{"--no-cache", "union.harn"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-LIM-003": 1}),
		},
		{
			name: "union-8k-under-limit",
			setup: func(t *testing.T, dir string) []string {
				var b strings.Builder
				b.WriteString("type T = ")
				for i := range 8000 {
					if i > 0 {
						b.WriteString(" | ")
					}
					fmt.Fprintf(&b, "\"m%d\"", i)
				}
				b.WriteString("\n\nfn main(t: T) -> string {\n  const u: T = \"m7999\"\n  log(u)\n  return t\n}\n")
				write(t, filepath.Join(dir, "union.harn"), []byte(b.String()))
				return []string{"--no-cache", "union.harn"}
			},
			exit:  exitOK,
			check: contains("no problems found"),
		},
		choiceProbe("choice-50k-labels-runtime-set", "evaluate_request", exitOK, contains("no problems found")),
		choiceProbe("choice-50k-labels", "evaluate", exitFail, countCodes(map[string]int{"HARN-LIM-003": 1})),
		{
			name: "nul-bytes-100k",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "nul.harn"), make([]byte, 100000))
				write(t, filepath.Join(dir, "nul.leia"), make([]byte, 100000))
				return []string{"--no-cache", "nul.harn", "nul.leia"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				countCodes(map[string]int{"HARN-IO-002": 2})(t, dir, stdout, stderr)
				if len(stdout) > 4096 {
					t.Errorf("%d bytes of output for two binary files", len(stdout))
				}
			},
		},
		{
			name: "control-characters-line",
			setup: func(t *testing.T, dir string) []string {
				line := bytes.Repeat([]byte("\x01\x1b[31m\x07"), 25000)
				src := append(append([]byte("fn main() {\n  log(undefined_name) // "), line...), "\n  log(also_undefined) // \x1b]0;title\x07\n}\n"...)
				write(t, filepath.Join(dir, "ctl.harn"), src)
				return []string{"--no-cache", "--color", "never", "ctl.harn"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				countCodes(map[string]int{"HARN-NAM-001": 2})(t, dir, stdout, stderr)
				if strings.ContainsAny(stdout, "\x01\x07\x1b") {
					t.Errorf("a control character reached the terminal")
				}
				if len(stdout) > 8192 {
					t.Errorf("%d bytes of output for two diagnostics: the long line is reprinted", len(stdout))
				}
			},
		},
		{
			name: "sarif-20k-diagnostics-non-ascii",
			setup: func(t *testing.T, dir string) []string {
				var b strings.Builder
				b.WriteString("fn main() {\n")
				for i := range 20000 {
					fmt.Fprintf(&b, "  log([\"ünïcödé 𝄞 %s\", undefined_%d])\n", strings.Repeat("é", 60), i)
				}
				b.WriteString("}\n")
				write(t, filepath.Join(dir, "many.harn"), []byte(b.String()))
				return []string{"--no-cache", "--format", "sarif", "many.harn"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				var log struct {
					Runs []struct {
						Results []struct {
							Locations []struct {
								PhysicalLocation struct {
									Region struct {
										StartLine, StartColumn, EndColumn int
									}
								}
							}
						}
					}
				}
				if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 {
					t.Fatalf("not SARIF: %v", err)
				}
				res := log.Runs[0].Results
				if len(res) != 20000 {
					t.Fatalf("%d results, want 20000", len(res))
				}
				// Before the name: `  log(["` (8), ünïcödé (7), a space, 𝄞
				// (two UTF-16 units), a space, 60 é, `", ` (3): 82 UTF-16
				// units, so it starts in column 83.
				reg := res[19999].Locations[0].PhysicalLocation.Region
				if reg.StartLine != 20001 || reg.StartColumn != 83 || reg.EndColumn != 83+len("undefined_19999") {
					t.Errorf("last region %+v, want line 20001 columns 83-%d (UTF-16)", reg, 83+len("undefined_19999"))
				}
			},
		},
		{
			name: "random-bytes-3mb",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "r.harn"), randomBytes(1, 3<<20, ""))
				write(t, filepath.Join(dir, "r.leia"), randomBytes(2, 3<<20, ""))
				return []string{"--no-cache", "r.harn", "r.leia"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-IO-002": 2}),
		},
		{
			name: "random-text-3mb",
			setup: func(t *testing.T, dir string) []string {
				const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 \n\t(){}[]<>=+-*/\"'.,;:!?|&@#$%^~`\\"
				write(t, filepath.Join(dir, "r.harn"), randomBytes(3, 3<<20, alphabet))
				write(t, filepath.Join(dir, "r.leia"), randomBytes(4, 3<<20, alphabet))
				return []string{"--no-cache", "--json", "r.harn", "r.leia"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				r := decodeReport(t, stdout)
				// The syntax errors are listed up to 100: either the
				// parser reads the whole file and a HARN-LIM-007 note
				// counts those past 100, or it reads the whole file with
				// at most 100 (its recovery wraps long stretches of the
				// text in a few errors, as the Leia grammar now does on
				// this text), or its error recovery stalls and it reports
				// the lines before and where it gave up. The checker
				// still checks what parsed (a few type errors on a
				// garbage file), so the whole report is bounded too.
				for _, f := range r.Data.Files {
					var syntax []jsonDiagnostic
					for _, d := range f.Diagnostics {
						if d.Source == "parser" || d.Source == "lexer" {
							syntax = append(syntax, d)
						}
					}
					n := len(syntax)
					if n == 0 || n > 101 || len(f.Diagnostics) > 300 {
						t.Errorf("%s: %d syntax diagnostics of %d, want 1 to 101 of at most 300", f.Path, n, len(f.Diagnostics))
						continue
					}
					note := slices.ContainsFunc(syntax, func(d jsonDiagnostic) bool { return d.Code == "HARN-LIM-007" })
					gaveUp := slices.ContainsFunc(syntax, func(d jsonDiagnostic) bool { return strings.Contains(d.Message, "the parser gave up here") })
					if n == 101 && !note {
						t.Errorf("%s: 101 syntax diagnostics without a HARN-LIM-007 note counting those past 100", f.Path)
					}
					if note && n != 101 && !gaveUp {
						t.Errorf("%s: a HARN-LIM-007 note among only %d syntax diagnostics", f.Path, n)
					}
				}
			},
		},
		{
			name: "huge-file-20mb",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "big.harn"), bytes.Repeat([]byte("fn f() -> int { return 1 }\n"), 20<<20/28))
				return []string{"--no-cache", "big.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-LIM-001", "more than the limit of 4 MiB"),
		},
		{
			name: "huge-file-lowered-limit",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "big.harn"), bytes.Repeat([]byte("fn main() { log(1) }\n"), 2<<20/21))
				return []string{"--no-cache", "--max-file-size", "1MiB", "big.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-LIM-001", "more than the limit of 1 MiB"),
		},
		{
			name: "huge-file-raised-limit",
			setup: func(t *testing.T, dir string) []string {
				src := append([]byte("fn main() { log(1) }\n"), bytes.Repeat([]byte("// a generated comment line that is long enough\n"), 6<<20/49)...)
				write(t, filepath.Join(dir, "big.harn"), src)
				return []string{"--no-cache", "--max-file-size", "8MiB", "big.harn"}
			},
			exit:  exitOK,
			check: contains("no problems found"),
		},
		{
			name: "import-chain-5k-one-file",
			setup: func(t *testing.T, dir string) []string {
				importChain(t, dir, 5000)
				return []string{"--no-cache", "--json", "m0.harn"}
			},
			exit:  exitFail,
			check: rootCauseNamed(1),
		},
		{
			name: "import-chain-10k-one-file",
			setup: func(t *testing.T, dir string) []string {
				importChain(t, dir, 10000)
				return []string{"--no-cache", "--json", "m0.harn"}
			},
			exit:  exitFail,
			check: rootCauseNamed(1),
		},
		{
			name: "import-chain-2500-folder",
			setup: func(t *testing.T, dir string) []string {
				importChain(t, filepath.Join(dir, "chain"), 2500)
				return []string{"--no-cache", "--json", "chain"}
			},
			exit:  exitFail,
			check: rootCauseNamed(2500),
		},
		{
			name: "import-cycle-2000-folder",
			setup: func(t *testing.T, dir string) []string {
				for i := range 2000 {
					src := fmt.Sprintf("import {f%d} from \"./c%d\"\n\npub fn f%d() -> int { return 1 }\n", (i+1)%2000, (i+1)%2000, i)
					write(t, filepath.Join(dir, "cycle", fmt.Sprintf("c%d.harn", i)), []byte(src))
				}
				return []string{"--no-cache", "cycle"}
			},
			exit:  exitOK,
			check: contains("2000 files checked, no problems found"),
		},
		{
			name: "lone-cr-harn",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "cr.harn"), []byte("// a comment\rfn main() {\r  log(undefined_name)\r}\r"))
				return []string{"--no-cache", "--json", "cr.harn"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				r := decodeReport(t, stdout)
				ds := r.Data.Files[0].Diagnostics
				if len(ds) != 1 || ds[0].Code != "HARN-NAM-001" || ds[0].Line != 3 || ds[0].Column != 7 {
					t.Errorf("want HARN-NAM-001 at 3:7, got %+v", ds)
				}
			},
		},
		{
			name: "lone-cr-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "cr.leia"), []byte("// a comment\rx := (1 +\rprint(x)\r"))
				return []string{"--no-cache", "--json", "cr.leia"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				r := decodeReport(t, stdout)
				ds := r.Data.Files[0].Diagnostics
				// The comment ends at the first CR: the unclosed ( on
				// line 2 is a syntax error reported on a later line.
				if !slices.ContainsFunc(ds, func(d jsonDiagnostic) bool { return d.Code == "LEIA1001" && d.Line >= 2 }) {
					t.Errorf("want a LEIA1001 after line 1, got %+v", ds)
				}
			},
		},
		{
			name: "cache-same-file-two-folders",
			setup: func(t *testing.T, dir string) []string {
				src := []byte("import \"std/predicate\"\n\nfn f(llm: HarnessLlm, s: {x: int}) -> PredicateOutcome {\n  return llm.evaluate_predicate(\"route.v1\", \"Is it?\", s, {backend: \"structured_llm\", provider: \"acme\", model: \"judge\", threshold: 0.5})\n}\n")
				write(t, filepath.Join(dir, "a", "x.harn"), src)
				write(t, filepath.Join(dir, "b", "x.harn"), src)
				write(t, filepath.Join(dir, "b", "harn.toml"), []byte("[[routes]]\nprovider = \"acme\"\nmodel = \"judge\"\noperations = [\"text_generation\", \"decision\"]\n"))
				// First check a/x.harn from inside a/, with the shared
				// cache; the probe then checks b/x.harn from inside b/.
				cmd := exec.Command(os.Args[0], "--cache-dir", filepath.Join(dir, "cache"), "x.harn")
				cmd.Dir = filepath.Join(dir, "a")
				cmd.Env = append(os.Environ(), "HARN_CHECK_PROBE_MAIN=1")
				if out, err := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != exitFail || !strings.Contains(string(out), "HARN-TYP-035") {
					t.Fatalf("a/x.harn without a route must fail with HARN-TYP-035: %v\n%s", err, out)
				}
				return []string{"--cache-dir", "../cache", "x.harn"}
			},
			subdir: "b",
			exit:   exitOK,
		},
		{
			name: "cache-entry-tampered",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "x.harn"), []byte("fn main() { log(undefined_name) }\n"))
				cache := filepath.Join(dir, "cache")
				cmd := exec.Command(os.Args[0], "--cache-dir", cache, "x.harn")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "HARN_CHECK_PROBE_MAIN=1")
				if err := cmd.Run(); cmd.ProcessState.ExitCode() != exitFail {
					t.Fatalf("cold run: %v", err)
				}
				// Change the diagnostic's code in every pack, keeping the
				// JSON valid and every offset in place: were the record's
				// checksum not verified, the run would report HARN-NAM-XYZ.
				n := 0
				filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
					if err != nil || d.IsDir() || filepath.Ext(p) != ".pack" {
						return nil
					}
					data, _ := os.ReadFile(p)
					if forged := bytes.ReplaceAll(data, []byte("HARN-NAM-001"), []byte("HARN-NAM-XYZ")); !bytes.Equal(forged, data) {
						os.WriteFile(p, forged, 0o600)
						n++
					}
					return nil
				})
				if n == 0 {
					t.Fatal("no cache entry written")
				}
				return []string{"--cache-dir", "cache", "x.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-NAM-001"),
		},
		{
			name: "cache-world-writable",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "x.harn"), []byte("fn main() { log(undefined_name) }\n"))
				if err := os.MkdirAll(filepath.Join(dir, "cache"), 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(filepath.Join(dir, "cache"), 0o777); err != nil {
					t.Fatal(err)
				}
				return []string{"--cache-dir", "cache", "x.harn"}
			},
			exit: exitFail,
			check: func(t *testing.T, dir, stdout, stderr string) {
				contains("HARN-NAM-001", "cache not used", "writable by others")(t, dir, stdout, stderr)
				if entries, _ := os.ReadDir(filepath.Join(dir, "cache")); len(entries) != 0 {
					t.Errorf("the unsafe cache folder was written to")
				}
			},
		},
		{
			name: "cache-other-owner",
			setup: func(t *testing.T, dir string) []string {
				if os.Geteuid() != 0 {
					t.Skip("needs root to give the cache folder another owner")
				}
				write(t, filepath.Join(dir, "x.harn"), []byte("fn main() { log(undefined_name) }\n"))
				if err := os.MkdirAll(filepath.Join(dir, "cache"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chown(filepath.Join(dir, "cache"), 4242, 4242); err != nil {
					t.Fatal(err)
				}
				return []string{"--cache-dir", "cache", "x.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-NAM-001", "cache not used", "owned by another user"),
		},
		{
			name: "empty-folder",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "docs", "notes.md"), []byte("# notes\n"))
				return []string{"--no-cache", "docs"}
			},
			exit:  exitUsage,
			check: contains("docs: no .harn or .leia files found", "--allow-empty"),
		},
		{
			name: "empty-folder-allowed",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "docs", "notes.md"), []byte("# notes\n"))
				return []string{"--no-cache", "--allow-empty", "docs"}
			},
			exit:  exitOK,
			check: contains("0 files checked"),
		},
		{
			name: "fmt-deep-nesting",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "deep.harn"), harnParens(30000))
				write(t, filepath.Join(dir, "deeper.harn"), harnParens(1000000))
				return []string{"fmt", "--check", "deep.harn", "deeper.harn"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-LIM-002": 1}),
		},
		{
			name: "fmt-hostile-files",
			setup: func(t *testing.T, dir string) []string {
				mkfifo(t, filepath.Join(dir, "src", "pipe.harn"))
				symlink(t, "/dev/zero", filepath.Join(dir, "src", "zero.leia"))
				write(t, filepath.Join(dir, "src", "cr.harn"), []byte("// c\rfn main() {\r  log(1)\r}\r"))
				return []string{"fmt", "--check", "src"}
			},
			exit:  exitFail,
			check: contains("pipe.harn: skipped: not a regular file", "zero.leia: skipped: not a regular file"),
		},
		{
			name: "run-deep-recursion-and-nesting",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "rec.harn"), []byte("fn f(n: int) -> int { return f(n + 1) + 1 }\nlog(f(0))\n"))
				return []string{"run", "rec.harn"}
			},
			exit:  exitFail,
			check: contains("Stack overflow"),
		},
		{
			name: "run-leia-deep-recursion",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "rec.leia"), []byte("func f(n) { return f(n + 1) + 1 }\nprint(f(0))\n"))
				return []string{"run", "rec.leia"}
			},
			exit: exitFail,
		},
		{
			name: "run-fifo",
			setup: func(t *testing.T, dir string) []string {
				mkfifo(t, filepath.Join(dir, "pipe.harn"))
				return []string{"run", "pipe.harn"}
			},
			exit:  exitUsage,
			check: contains("not a regular file"),
		},
		rhaiProbe("rhai-to-chars-50mb", "fn validate(content) { let c = content.to_chars(); if c.len() > 0 { () } else { \"empty\" } }"),
		rhaiProbe("rhai-split-empty-30mb", "fn validate(content) { let parts = content.split(\"\"); if parts.len() > 0 { () } else { \"empty\" } }"),
		rhaiProbe("rhai-return-content-50mb", "fn validate(content) { content }"),
	}
}

// choiceProbe checks a site asking one choice question with 50,000 labels
// through method (evaluate reads the literal question set and types the
// answer's label as their union; evaluate_request admits the set at run
// time).
func choiceProbe(name, method string, exit int, check func(t *testing.T, dir, stdout, stderr string)) probe {
	return probe{
		name: name,
		setup: func(t *testing.T, dir string) []string {
			var b strings.Builder
			fmt.Fprintf(&b, "import \"std/predicate\"\n\nfn main(llm: HarnessLlm) {\n  const o = llm.%s(\"x.choice.v1\", {text: \"t\"}, {q: choice(\"Which?\", {", method)
			for i := range 50000 {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "l%d: \"d\"", i)
			}
			b.WriteString("})}, {backend: \"structured_llm\", provider: \"mock\", model: \"fixture\", threshold: 0.5})\n  log(o)\n}\n")
			write(t, filepath.Join(dir, "choice.harn"), []byte(b.String()))
			return []string{"--no-cache", "choice.harn"}
		},
		exit:  exit,
		check: check,
	}
}

// rhaiProbe runs validate-output on a 50 MB answer with script.
func rhaiProbe(name, script string) probe {
	return probe{
		name: name,
		setup: func(t *testing.T, dir string) []string {
			write(t, filepath.Join(dir, "v.rhai"), []byte(script+"\n"))
			write(t, filepath.Join(dir, "answer.txt"), bytes.Repeat([]byte("abcdefghij"), 5<<20))
			return []string{"validate-output", "--validator", "v.rhai", "--content", "answer.txt"}
		},
		exit: exitFail,
		check: func(t *testing.T, dir, stdout, stderr string) {
			var res struct {
				Verdict string `json:"verdict"`
				Reason  string `json:"reason"`
			}
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("no verdict: %v\n%s", err, tail(stdout))
			}
			if res.Verdict == "pass" || len(stdout) > 1<<20 {
				t.Errorf("verdict %q, %d bytes of output: a 50 MB answer must not pass or be echoed", res.Verdict, len(stdout))
			}
			if !regexp.MustCompile(`(?i)limit|too large|size`).MatchString(res.Reason) {
				t.Errorf("the reason does not name the limit: %q", res.Reason)
			}
		},
	}
}

// countCodes checks the number of diagnostics of each code in the text or
// JSON output.
func countCodes(want map[string]int) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, stdout, stderr string) {
		t.Helper()
		for code, n := range want {
			got := strings.Count(stdout+stderr, "["+code+"]") + strings.Count(stdout+stderr, `"`+code+`"`)
			if got != n {
				t.Errorf("%d × %s, want %d\nstdout: %s\nstderr: %s", got, code, n, tail(stdout), tail(stderr))
			}
		}
	}
}

// rootCauseNamed checks a JSON report of an import chain whose last module
// has an undefined name: n files reported, every importer's HARN-MOD-007
// names the root cause in a message of bounded length.
func rootCauseNamed(n int) func(t *testing.T, dir, stdout, stderr string) {
	return func(t *testing.T, dir, stdout, stderr string) {
		t.Helper()
		r := decodeReport(t, stdout)
		if len(r.Data.Files) != n {
			t.Fatalf("%d files reported, want %d", len(r.Data.Files), n)
		}
		for _, f := range r.Data.Files {
			for _, d := range f.Diagnostics {
				if d.Code == "HARN-MOD-007" && (len(d.Message) > 400 || !strings.Contains(d.Message, "HARN-NAM-001")) {
					t.Fatalf("%s: HARN-MOD-007 must name the root cause in a short message: %.500s", f.Path, d.Message)
				}
			}
		}
		ds := r.Data.Files[0].Diagnostics
		if !slices.ContainsFunc(ds, func(d jsonDiagnostic) bool { return d.Code == "HARN-MOD-007" }) {
			t.Errorf("%s: want HARN-MOD-007, got %+v", r.Data.Files[0].Path, ds)
		}
	}
}

func TestProbes(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile-input probes run harn-check as a child process; skipped in -short")
	}
	for _, p := range probes() {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			args := p.setup(t, dir)
			r := runProbe(t, filepath.Join(dir, p.subdir), args, "")
			checkProbe(t, p.name, p, dir, r)
		})
	}
}
