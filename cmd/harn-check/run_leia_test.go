package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLeia: `harn-check run FILE.leia` has the flags, exit statuses and
// error format of the Harn runs.
func TestRunLeia(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(outside, "data.txt"), []byte("outside data"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := writeProgram(t, dir, "ok.leia", "print(\"hi\", #arg, arg[1], arg[2])\n")
	boom := writeProgram(t, dir, "boom.leia", "func f(t) {\n  return t.x.y\n}\nf({})\n")
	exit := writeProgram(t, dir, "exit.leia", "print(\"bye\")\nos.exit(3)\n")
	loop := writeProgram(t, dir, "loop.leia", "for {}\n")
	syntax := writeProgram(t, dir, "syntax.leia", "x := (1 +\n")
	reads := writeProgram(t, dir, "reads.leia", "data, err := fs.readFile(\""+filepath.Join(outside, "data.txt")+"\")\nif err { error(err) }\nprint(data)\n")
	cases := []struct {
		name      string
		args      []string
		code      int
		stdout    string
		stderrHas []string
	}{
		{"runs with arguments", []string{"run", ok, "a", "--", "--b"}, 0, "hi\t2\ta\t--b\n", nil},
		{"uncaught error with trace", []string{"run", boom}, 1, "", []string{"error: " + boom + ":2:14: attempt to index a nil value (field 'x')", "at f (" + boom + ":2:14)", "at <top level> (" + boom + ":4:1)"}},
		{"os.exit keeps its status", []string{"run", exit}, 3, "bye\n", nil},
		{"--timeout stops a runaway loop", []string{"run", "--timeout", "200ms", loop}, 1, "", []string{"time budget exceeded: the program ran longer than 200ms; raise it with --timeout"}},
		{"--max-steps stops a runaway loop", []string{"run", "--max-steps", "100000", loop}, 1, "", []string{"step budget exceeded: the program ran more than 100,000 steps; raise it with --max-steps"}},
		{"syntax error is reported, not run", []string{"run", syntax}, 1, "", []string{"never closed", "not running it"}},
		{"denied without the flag", []string{"run", reads}, 1, "", []string{"--allow-fs"}},
		{"granted with the flag", []string{"run", "--allow-fs=" + outside, reads}, 0, "outside data\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, c.code, stderr)
			}
			if stdout != c.stdout {
				t.Errorf("stdout %q, want %q", stdout, c.stdout)
			}
			for _, s := range c.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
}
