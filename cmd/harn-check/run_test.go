package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeProgram(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunCommand(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	// The program's temp dir is $TMPDIR: point it away from outside.
	t.Setenv("TMPDIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(outside, "data.txt"), []byte("outside data"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := writeProgram(t, dir, "ok.harn", "log(\"hi\")\nprintln(argv)\n")
	boom := writeProgram(t, dir, "boom.harn", "fn f() {\n  throw \"boom\"\n}\nf()\n")
	bad := writeProgram(t, dir, "bad.harn", "let x: int = \"text\"\nprintln(\"ran\")\n")
	reads := writeProgram(t, dir, "reads.harn", "println(read_file(\""+filepath.Join(outside, "data.txt")+"\"))\n")
	cases := []struct {
		name        string
		args        []string
		code        int
		stdout      string
		stderrHas   []string
		stderrLacks string
	}{
		{"runs with arguments", []string{"run", ok, "a", "--", "--b"}, 0, "[harn] hi\n[a, --b]\n", nil, ""},
		{"uncaught error with trace", []string{"run", boom}, 1, "", []string{"error: Thrown: boom", "at f (", "boom.harn:2:3)", "boom.harn:4:1)"}, ""},
		{"refuses a program with errors", []string{"run", bad}, 1, "", []string{"HARN-TYP", "not running it"}, ""},
		{"--no-check runs it anyway", []string{"run", "--no-check", bad}, 0, "ran\n", nil, ""},
		{"denied without the flag", []string{"run", reads}, 1, "", []string{"permission denied", "--allow-fs=" + outside}, ""},
		{"granted with the flag", []string{"run", "--allow-fs=" + outside, reads}, 0, "outside data\n", nil, ""},
		{"no program", []string{"run"}, 2, "", []string{"no program given"}, ""},
		{"unknown kind", []string{"run", filepath.Join(dir, "x.txt")}, 2, "", []string{"not a program of a known language"}, ""},
		{"missing file", []string{"run", filepath.Join(dir, "missing.harn")}, 2, "", []string{"missing.harn"}, ""},
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

func TestTestCommand(t *testing.T) {
	dir := t.TempDir()
	writeProgram(t, dir, "pass.harn", "println(1 + 1)\n")
	writeProgram(t, dir, "pass.expected", "2\n")
	writeProgram(t, dir, "fail.harn", "println(3)\n")
	writeProgram(t, dir, "fail.expected", "4\n")
	writeProgram(t, dir, "err.harn", "throw \"bad thing\"\n")
	writeProgram(t, dir, "err.error", "bad thing\n")
	writeProgram(t, dir, "lib.harn", "fn helper() {\n  return 1\n}\n")
	code, stdout, _ := runCLI(t, "test", "--jobs", "2", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1 (one case fails)", code)
	}
	for _, want := range []string{"  PASS  pass.harn", "  FAIL  fail.harn", "  PASS  err.harn", "  - 4", "  + 3", "2 passed, 1 failed, 3 total"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = runCLI(t, "test", "--filter", "pass", "--json", dir)
	var doc struct {
		OK   bool `json:"ok"`
		Data struct {
			Cases   []struct{ Path string }
			Summary map[string]int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 0 || !doc.OK || len(doc.Data.Cases) != 1 || doc.Data.Summary["passed"] != 1 {
		t.Errorf("filtered JSON run: exit %d %+v", code, doc)
	}
	junit := filepath.Join(t.TempDir(), "out.xml")
	runCLI(t, "test", "--junit", junit, dir)
	if b, err := os.ReadFile(junit); err != nil || !strings.Contains(string(b), `failures="1"`) {
		t.Errorf("junit: %v %s", err, b)
	}
}
