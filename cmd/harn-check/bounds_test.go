package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/validator"
)

// The bounded-run probes of issue #25 (section 3): each runs harn-check as
// a child process like the probes of probes_test.go, with the checks they
// share, and some with a tighter memory bound that tells reading a whole
// input from reading what the limit needs.

// boundProbe is a probe with its own peak memory bound (0: probeMaxRSS).
type boundProbe struct {
	probe
	maxRSS int64
}

func boundProbes() []boundProbe {
	loud := map[string]string{
		"loud.harn": "fn main() {\n  while true {\n    println(\"spam spam spam spam spam spam spam spam spam spam\")\n  }\n}\n",
		"loud.leia": "for {\n  print(\"spam spam spam spam spam spam spam spam spam spam\")\n}\n",
	}
	var out []boundProbe
	for _, name := range []string{"loud.harn", "loud.leia"} {
		// A program that prints forever is stopped at the capture limit,
		// long before its time runs out (it reached 4 GB in 9 s).
		out = append(out, boundProbe{probe: probe{
			name: "test-prints-forever-" + filepath.Ext(name)[1:],
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, name), []byte(loud[name]))
				// A .error case: the report quotes the actual error (an
				// .expected case's "runtime error:" would read as a crash
				// to checkProbe).
				write(t, filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".error"), []byte("never printed\n"))
				return []string{"test", "--timeout", "10s", name}
			},
			exit:  exitFail,
			check: contains("actual error: the program printed more than the 16 MiB of output kept per program: it was stopped and its output truncated", "0 passed, 1 failed"),
		}})
	}
	return append(out, []boundProbe{
		{
			// A 60 MB answer (a sparse file: no disk is written) is refused
			// with its size named, after reading 1 MB of it.
			maxRSS: 100 << 20,
			probe: probe{
				name: "validate-output-60mb-read-to-limit",
				setup: func(t *testing.T, dir string) []string {
					write(t, filepath.Join(dir, "v.rhai"), []byte("fn validate(content) { () }\n"))
					f, err := os.Create(filepath.Join(dir, "answer.txt"))
					if err != nil {
						t.Fatal(err)
					}
					if err := f.Truncate(60_000_000); err != nil {
						t.Fatal(err)
					}
					f.Close()
					return []string{"validate-output", "--validator", "v.rhai", "--content", "answer.txt"}
				},
				exit: exitFail,
				check: func(t *testing.T, dir, stdout, stderr string) {
					var res struct {
						Verdict string `json:"verdict"`
						Failure struct{ Kind, Message string }
					}
					if err := json.Unmarshal([]byte(stdout), &res); err != nil {
						t.Fatalf("no verdict: %v\n%s", err, tail(stdout))
					}
					if res.Verdict != "failure" || res.Failure.Kind != "data_too_large" ||
						!strings.Contains(res.Failure.Message, "the answer is 60000000 bytes, more than the string size limit of 1000000 bytes") {
						t.Errorf("verdict %+v", res)
					}
				},
			},
		},
	}...)
}

func TestProbesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("the probes run harn-check as a child process; skipped in -short")
	}
	for _, p := range boundProbes() {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			args := p.setup(t, dir)
			r := runProbe(t, filepath.Join(dir, p.subdir), args, "")
			checkProbe(t, p.name, p.probe, dir, r)
			if p.maxRSS > 0 && r.maxRSS > p.maxRSS {
				t.Errorf("peak memory %.0f MiB, over this probe's %d MiB: the input was read past its limit", float64(r.maxRSS)/(1<<20), p.maxRSS>>20)
			}
		})
	}
}

// endless is a reader that never ends, counting what was read from it.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestValidateOutputStdinReadToLimit: an answer on standard input is read
// one byte past the validator's limit and no further (it was read up to
// 64 MiB), and refused with a verdict.
func TestValidateOutputStdinReadToLimit(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "v.rhai")
	if err := os.WriteFile(script, []byte("fn validate(content) { () }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := &endless{}
	var out, errb bytes.Buffer
	e := &env{stdin: in, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, cacheDir: t.TempDir()}
	code := run(e, []string{"validate-output", "--validator", script})
	if code != exitFail || !strings.Contains(out.String(), "the answer is more than the string size limit of 1000000 bytes") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
	}
	// io.ReadAll reads in chunks of up to 512 bytes past what it holds.
	if limit := int64(validator.AnswerLimit()); in.n > limit+64<<10 {
		t.Errorf("read %d bytes of the answer, the limit is %d", in.n, limit)
	}
}

// TestRunInterruptFlushes: SIGINT stops a piped run, and what the program
// printed before it (buffered, since stdout is not a terminal) still
// reaches stdout; the exit status is 130. The program says on stderr,
// which is not buffered, when its output is written.
func TestRunInterruptFlushes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs harn-check as a child process")
	}
	for name, src := range map[string]string{
		"wait.harn": "fn main() {\n  println(\"printed before the interrupt\")\n  eprintln(\"ready\")\n  while true {\n  }\n}\n",
		"wait.leia": "print(\"printed before the interrupt\")\nio.stderr:write(\"ready\\n\")\nfor {\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, name), []byte(src))
			cmd := exec.Command(os.Args[0], "run", name)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HARN_CHECK_PROBE_MAIN=1", "HOME="+dir, "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "NO_COLOR=1")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			killed := time.AfterFunc(probeTimeout, func() { cmd.Process.Kill() })
			defer killed.Stop()
			outc := make(chan []byte)
			go func() { b, _ := io.ReadAll(stdout); outc <- b }()
			errs := bufio.NewReader(stderr)
			line, err := errs.ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the program did not start: %q %v", line, err)
			}
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(errs)
			out := <-outc
			err = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
				t.Errorf("exit %d (%v), want %d", code, err, exitInterrupted)
			}
			if string(out) != "printed before the interrupt\n" {
				t.Errorf("stdout %q: the buffered output was lost", out)
			}
			if !strings.Contains(string(rest), "harn-check: run: interrupted") {
				t.Errorf("stderr %q", rest)
			}
		})
	}
}

// TestLeiaTargetsCheckedAsRun (issue #25): a declaration or assignment
// whose target the runtime refuses (`chan := 1`: a keyword, not a name)
// is refused by check too, with the runtime's words; check used to pass
// it. Both go through the one rule of grammar/leia/ast.
func TestLeiaTargetsCheckedAsRun(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"chan := 1\n", "non-name on left side of :="},
		{"x, nil := 1, 2\n", "non-name on left side of :="},
		{"chan = 1\n", "cannot assign to this expression"},
		{"(x) = 2\n", "cannot assign to a parenthesized expression"},
		{"for true, v := range [1] {\n  print(v)\n}\n", "range variable must be a name"},
	} {
		t.Run(strings.TrimSpace(tc.src), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.leia")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCLI(t, "check", path)
			if code != exitFail || !strings.Contains(out+stderr, "error[LEIA1001]: "+tc.want) {
				t.Errorf("check: exit %d\n%s%s", code, out, stderr)
			}
			code, out, stderr = runCLI(t, "run", "--no-check", path)
			if code != exitFail || !strings.Contains(out+stderr, tc.want) {
				t.Errorf("run: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
	// What the runtime accepts, check accepts.
	path := filepath.Join(t.TempDir(), "ok.leia")
	if err := os.WriteFile(path, []byte("x := 1\nx = 2\nt := {}\nt.a = 1\nt[1] = 2\nx++\nfor k, v := range t {\n  print(k, v)\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCLI(t, "check", path); code != exitOK {
		t.Errorf("check of valid targets: exit %d\n%s%s", code, out, stderr)
	}
}

// TestBOMOneRule (issue #25): parse, check and fmt give one answer on a
// byte order mark. Harn has none (upstream's lexer refuses it): all three
// refuse it with HARN-PAR-003, at the start of the file or inside it; fmt
// used to drop it and format the file. Leia accepts one at the start
// everywhere (fmt drops it, as it normalises any layout) and refuses one
// inside the file everywhere.
func TestBOMOneRule(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	for _, tc := range []struct {
		name, src, want string // want "" is accepted
	}{
		{"lead.harn", bom + "fn main() {\n  log(1)\n}\n", "error[HARN-PAR-003]: Unexpected character '" + bom + "' at "},
		{"inside.harn", "fn main() {\n  log(1)" + bom + "\n}\n", "error[HARN-PAR-003]: Unexpected character '" + bom + "' at "},
		{"lead.leia", bom + "print(1)\n", ""},
		{"inside.leia", "print(1)" + bom + "\nprint(2)\n", "error[LEIA1001]: unexpected `" + bom + "`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"parse", path}, {"check", path}, {"fmt", path}} {
				code, out, stderr := runCLI(t, args...)
				switch {
				case tc.want == "" && code != exitOK:
					t.Errorf("%s: exit %d, want it accepted\n%s%s", args[0], code, out, stderr)
				case tc.want != "" && (code != exitFail || !strings.Contains(out+stderr, tc.want)):
					t.Errorf("%s: exit %d, want 1 and %q\nstdout: %s\nstderr: %s", args[0], code, tc.want, out, stderr)
				}
				if args[0] == "fmt" && tc.want == "" && strings.Contains(out, bom) {
					t.Errorf("fmt kept the byte order mark: %q", out)
				}
			}
		})
	}
}
