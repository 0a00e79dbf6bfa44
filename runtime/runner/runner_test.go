package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNormalizeOutput(t *testing.T) {
	cases := map[string]string{
		"a\nb  \n\n":                "a\nb",
		"[timer] load: 12ms\nx":     "[timer] load: <ms>\nx",
		"[timer] a: b: 3ms":         "[timer] a: b: <ms>",
		"not [timer] x: 1ms":        "not [timer] x: 1ms",
		"line\r\nnext\r\n":          "line\nnext",
		"[timer] no millis: 12 sec": "[timer] no millis: 12 sec",
	}
	for in, want := range cases {
		if got := NormalizeOutput(in); got != want {
			t.Errorf("NormalizeOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestErrorMatches(t *testing.T) {
	cases := []struct {
		msg, spec string
		want      bool
	}{
		{"Thrown: boom at x", "Thrown: boom", true},
		{"Thrown: boom", "Thrown: bang", false},
		{"value 42 too big", "re:value [0-9]+ too", true},
		{"value x too big", "re:value [0-9]+ too", false},
		{"second form", "first\nsecond", true},
		{"anything", "re:(", false},
	}
	for _, c := range cases {
		if got := ErrorMatches(c.msg, c.spec); got != c.want {
			t.Errorf("ErrorMatches(%q, %q) = %v", c.msg, c.spec, got)
		}
	}
}

func TestFilter(t *testing.T) {
	cases := []struct {
		filter, path string
		want         bool
	}{
		{"", "a/b.harn", true},
		{"b.h", "a/b.harn", true},
		{"x|b.h", "a/b.harn", true},
		{"a/*.harn", "a/b.harn", true},
		{"c/*", "a/b.harn", false},
		{"re:^a/b", "a/b.harn", true},
		{"re:^b", "a/b.harn", false},
	}
	for _, c := range cases {
		m, err := compileFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := m(c.path); got != c.want {
			t.Errorf("filter %q on %q = %v", c.filter, c.path, got)
		}
	}
	if _, err := compileFilter("re:("); err == nil {
		t.Error("a bad regex filter must be an error")
	}
}

// TestSuite drives a fake language through Discover and Suite: pairing
// with .expected and .error, library files skipped, failures explained.
func TestSuite(t *testing.T) {
	langs := Languages{{Name: "Echo", Extension: ".echo", Run: func(ctx context.Context, p Program, env Env) error {
		text := string(p.Src)
		if msg, ok := strings.CutPrefix(text, "fail:"); ok {
			return errors.New(msg)
		}
		_, err := env.Stdout.Write([]byte(text))
		return err
	}}}
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.echo", "hello\n")
	write("ok.expected", "hello\n\n")
	write("wrong.echo", "hullo")
	write("wrong.expected", "hello")
	write("err.echo", "fail:kaboom")
	write("err.error", "kaboom")
	write("noerr.echo", "fine")
	write("noerr.error", "kaboom")
	write("lib.echo", "not a case")
	cases, err := langs.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 {
		t.Fatalf("discovered %d cases, want 4 (lib.echo has no expectation)", len(cases))
	}
	got := map[string]CaseResult{}
	for _, r := range Suite(context.Background(), cases, SuiteOptions{Jobs: 2}) {
		got[r.Rel] = r
	}
	if !got["ok.echo"].Passed || !got["err.echo"].Passed {
		t.Errorf("passing cases failed: %+v", got)
	}
	if got["wrong.echo"].Passed || !strings.Contains(got["wrong.echo"].Message, "- hello") || !strings.Contains(got["wrong.echo"].Message, "+ hullo") {
		t.Errorf("wrong output: %+v", got["wrong.echo"])
	}
	if got["noerr.echo"].Passed || !strings.Contains(got["noerr.echo"].Message, "but succeeded") {
		t.Errorf("missing error: %+v", got["noerr.echo"])
	}
	check := SuiteOptions{Prepare: func(string, []byte, *Env) error { return errors.New("checker says no") }}
	if r := RunCase(context.Background(), cases[0], check); r.Passed || !strings.Contains(r.Message, "checker says no") {
		t.Errorf("a check failure must fail the case: %+v", r)
	}
}

func TestRelativeToProgram(t *testing.T) {
	abs, _ := filepath.Abs("suite")
	for _, tc := range []struct{ text, program, want string }{
		{"error: suite/x.leia:3:1: boom\n    at f (suite/x.leia:2:1)", "suite/x.leia", "error: x.leia:3:1: boom\n    at f (x.leia:2:1)"},
		{"error: ./suite/lib/m.leia:1:1: boom", "./suite/x.leia", "error: lib/m.leia:1:1: boom"},
		{"read " + abs + "/data.txt: no such file", "suite/x.harn", "read data.txt: no such file"},
		{"error: x.leia:1:1: boom", "x.leia", "error: x.leia:1:1: boom"},
		// Only whole path prefixes: other/suite/x.leia is not the program's folder.
		{"error: other/suite/x.leia:1:1", "suite/x.leia", "error: other/suite/x.leia:1:1"},
	} {
		if got := RelativeToProgram(tc.text, tc.program); got != tc.want {
			t.Errorf("RelativeToProgram(%q, %q) = %q, want %q", tc.text, tc.program, got, tc.want)
		}
	}
}

// A suite's programs run with the root of the repository holding the
// suite as their working directory, wherever the runner was started; a
// suite outside any repository keeps the process's.
func TestSuiteWorkDir(t *testing.T) {
	langs := Languages{{Name: "Echo", Extension: ".echo", Run: func(ctx context.Context, p Program, env Env) error {
		_, err := env.Stdout.Write([]byte(env.WorkDir))
		return err
	}}}
	repo := t.TempDir()
	suite := filepath.Join(repo, "conformance", "tests")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(suite, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(repo)
	for name, content := range map[string]string{"wd.echo": "", "wd.expected": abs} {
		if err := os.WriteFile(filepath.Join(suite, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases, err := langs.Discover([]string{suite}, "")
	if err != nil || len(cases) != 1 {
		t.Fatalf("discover: %v %d", err, len(cases))
	}
	if r := RunCase(context.Background(), cases[0], SuiteOptions{}); !r.Passed {
		t.Fatalf("working directory: %s", r.Message)
	}
	if got := RepositoryRoot(t.TempDir()); got != "" && !strings.HasPrefix(abs, got) {
		// A temp dir inside a repository would find that one.
		t.Fatalf("RepositoryRoot outside any repository: %q", got)
	}
}
