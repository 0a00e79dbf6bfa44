package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// commandPaths lists every command of the table as its words ("check",
// "llm evaluate"), groups included, so a command added later is covered
// by the tests below without editing them.
func commandPaths() [][]string {
	var out [][]string
	var walk func(prefix []string, list []*command)
	walk = func(prefix []string, list []*command) {
		for _, c := range list {
			p := append(append([]string{}, prefix...), c.name)
			out = append(out, p)
			walk(p, c.subcommands)
		}
	}
	walk(nil, commands())
	return out
}

// Every command prints its usage for -h and --help on stdout and exits 0;
// `help CMD` prints the same text.
func TestHelpOnEveryCommand(t *testing.T) {
	for _, path := range commandPaths() {
		name := strings.Join(path, " ")
		t.Run(name, func(t *testing.T) {
			var first string
			for _, h := range []string{"-h", "--help", "-help"} {
				code, stdout, stderr := runCLI(t, append(append([]string{}, path...), h)...)
				if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: harn-check "+name) {
					t.Fatalf("%s %s: exit %d, stdout %q, stderr %q", name, h, code, stdout, stderr)
				}
				if first == "" {
					first = stdout
				} else if stdout != first {
					t.Errorf("%s %s prints another text than -h", name, h)
				}
			}
			code, stdout, stderr := runCLI(t, append([]string{"help"}, path...)...)
			if code != exitOK || stderr != "" || stdout != first {
				t.Errorf("help %s: exit %d, stderr %q, stdout differs from -h:\n%s", name, code, stderr, stdout)
			}
		})
	}
	// The top level: no command, -h, help, and help's own -h.
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "-h"}, {"help", "--help"}} {
		code, stdout, _ := runCLI(t, args...)
		if code != exitOK || !strings.Contains(stdout, "commands:") {
			t.Errorf("%v: exit %d\n%s", args, code, stdout)
		}
	}
	if code, stdout, stderr := runCLI(t); code != exitUsage || stdout != "" || !strings.Contains(stderr, "commands:") {
		t.Errorf("no arguments: exit %d, stdout %q", code, stdout)
	}
	for _, tc := range []struct{ args []string }{{[]string{"help", "fmtt"}}, {[]string{"help", "llm", "evalute"}}, {[]string{"help", "version", "x"}}} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
	}
	if _, _, stderr := runCLI(t, "help", "fmtt"); !strings.Contains(stderr, "did you mean fmt?") {
		t.Errorf("help fmtt: %q", stderr)
	}
}

// An unknown flag is a usage error on every command, named with the
// command, in one line, with the nearest flag when there is one.
func TestUnknownFlagIsAUsageErrorEverywhere(t *testing.T) {
	for _, path := range commandPaths() {
		name := strings.Join(path, " ")
		code, stdout, stderr := runCLI(t, append(append([]string{}, path...), "--bogus")...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s --bogus: exit %d, stdout %q, stderr %q", name, code, stdout, stderr)
			continue
		}
		want := "harn-check: " + name + ": unknown flag --bogus"
		if path[0] == "llm" && len(path) == 1 {
			want = `harn-check: llm: unknown subcommand "--bogus"`
		}
		if !strings.HasPrefix(stderr, want) {
			t.Errorf("%s --bogus: stderr %q, want it to start with %q", name, stderr, want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--jsn", "x.harn"}, "unknown flag --jsn (did you mean --json?)"},
		{[]string{"fmt", "--chek", "x.harn"}, "did you mean --check?"},
		{[]string{"run", "--no-chek", "x.harn"}, "did you mean --no-check?"},
		{[]string{"test", "--jobs", "many", "."}, `--jobs "many": want a whole number`},
		{[]string{"test", "--timeout", "soon", "."}, `--timeout "soon": want a duration`},
		{[]string{"check", "--format"}, "--format needs a value"},
		{[]string{"check", "--json=maybe", "x.harn"}, `--json "maybe": want true or false`},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// The flag parser's conventions, one case each.
func TestFlagParser(t *testing.T) {
	type result struct {
		pos   []string
		dash  int
		b     bool
		s     string
		opt   optionalString
		err   string
		isHlp bool
	}
	parse := func(args ...string) result {
		fs := newFlagSet("t")
		var r result
		fs.BoolVar(&r.b, "b", false, "")
		fs.StringVar(&r.s, "s", "", "")
		r.opt.takes = func(next string) bool { return strings.HasSuffix(next, ".jsonl") }
		fs.Var(&r.opt, "opt", "")
		pos, err := fs.parse(args)
		r.pos, r.dash = pos, fs.dash
		r.isHlp = err == errHelp
		if err != nil && !r.isHlp {
			r.err = err.Error()
		}
		return r
	}
	for _, tc := range []struct {
		args []string
		want result
	}{
		{[]string{"a", "-b", "b"}, result{pos: []string{"a", "b"}, dash: -1, b: true}},
		{[]string{"a", "--s", "v", "c"}, result{pos: []string{"a", "c"}, dash: -1, s: "v"}},
		{[]string{"--s=v=w", "a"}, result{pos: []string{"a"}, dash: -1, s: "v=w"}},
		{[]string{"--b=false", "a"}, result{pos: []string{"a"}, dash: -1}},
		{[]string{"a", "--", "-b", "--s"}, result{pos: []string{"a", "-b", "--s"}, dash: 1}},
		{[]string{"-", "--b"}, result{pos: []string{"-"}, dash: -1, b: true}},
		{[]string{"--opt", "prog.harn"}, result{pos: []string{"prog.harn"}, dash: -1, opt: optionalString{Given: true}}},
		{[]string{"--opt", "tape.jsonl", "prog.harn"}, result{pos: []string{"prog.harn"}, dash: -1, opt: optionalString{Given: true, Value: "tape.jsonl"}}},
		{[]string{"--opt=x", "p"}, result{pos: []string{"p"}, dash: -1, opt: optionalString{Given: true, Value: "x"}}},
		{[]string{"--opt", "--", "t.jsonl"}, result{pos: []string{"t.jsonl"}, dash: 0, opt: optionalString{Given: true}}},
		{[]string{"a", "--help"}, result{isHlp: true, dash: -1}},
		{[]string{"a", "-h", "--bogus"}, result{isHlp: true, dash: -1}},
		{[]string{"--s"}, result{dash: -1, err: "--s needs a value"}},
		{[]string{"--nope"}, result{dash: -1, err: "unknown flag --nope"}},
		{[]string{"--", "--help"}, result{pos: []string{"--help"}, dash: 0}},
	} {
		got := parse(tc.args...)
		got.opt.takes, tc.want.opt.takes = nil, nil
		if got.pos == nil {
			got.pos = []string{}
		}
		if tc.want.pos == nil {
			tc.want.pos = []string{}
		}
		if tc.want.err != "" || tc.want.isHlp {
			got.pos, tc.want.pos = []string{}, []string{}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.args, got, tc.want)
		}
	}
}

// Flags may follow the paths on every command: `evaluate FILE --mock`.
func TestFlagsAfterPaths(t *testing.T) {
	dir := t.TempDir()
	leia := filepath.Join(dir, "e.leia")
	writeFile(t, dir, "e.leia", "evaluate \"one\" { assert(1 + 1 == 2) }\n")
	harn := writeFile(t, dir, "p.harn", "println(\"ran\")\n")
	writeFile(t, dir, "p.expected", "ran\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"evaluate", leia, "--mock"}, 0, "llm: mock"},
		{[]string{"check", harn, "--json"}, 0, `"schemaVersion": 1`},
		{[]string{"manifest", harn, "--json"}, 0, `"predicate_manifest"`},
		{[]string{"parse", harn, "--sexp"}, 0, "(source_file"},
		{[]string{"fmt", harn, "--check"}, 0, ""},
		{[]string{"test", dir, "--json"}, 0, `"passed": 1`},
		{[]string{"explain", "HARN-TYP-036", "--json"}, 0, `"code": "HARN-TYP-036"`},
		{[]string{"run", harn, "--seed", "1"}, 0, "ran\n"},
		{[]string{"validate", filepath.Join("..", "..", "examples", "validators"), "--format", "json"}, 0, `"ok": true`},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q\nstdout %s\nstderr %s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
}

// A first argument that is neither a command nor an existing path is a
// usage error with the nearest command; "format" is refused
// even where a folder of that name exists (the repository has format/).
func TestFirstWordThatIsNotACommand(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "format"), 0o755)
	os.MkdirAll(filepath.Join(dir, "examples"), 0o755)
	writeFile(t, dir, "format/a.harn", "println(1)\n")
	writeFile(t, dir, "examples/a.harn", "println(1)\n")
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lintt", "examples"}, `harn-check: "lintt" is not a command, nor a file or folder; did you mean lint?`},
		{[]string{"format", "examples"}, `harn-check: "format" is not a command; did you mean fmt? (to check the path format, write ./format`},
		{[]string{"tset", "examples"}, `harn-check: "tset" is not a command, nor a file or folder; did you mean test?`},
		{[]string{"evalute", "examples"}, "did you mean evaluate?"},
		{[]string{"frobnicate"}, `"frobnicate" is not a command, nor a file or folder (run 'harn-check help'`},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// An existing path, or one that looks like a path, is checked.
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"examples"}, exitOK, "1 file checked"},
		{[]string{"./format"}, exitOK, "1 file checked"},
		{[]string{"check", "format"}, exitOK, "1 file checked"},
		{[]string{"missing.harn"}, exitUsage, "missing.harn: no such file or directory"},
		{[]string{"sub/missing"}, exitUsage, "sub/missing: no such file or directory"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
}

// `run FILE -- a b` gives the program a and b, not "--".
func TestRunPassesWhatFollowsTheDoubleDash(t *testing.T) {
	dir := t.TempDir()
	harn := writeFile(t, dir, "args.harn", "println(argv)\n")
	leia := writeFile(t, dir, "args.leia", "print(#arg, arg[1], arg[2])\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", harn, "--", "a", "b"}, "[a, b]\n"},
		{[]string{"run", harn, "--", "--no-check", "-x"}, "[--no-check, -x]\n"},
		{[]string{"run", "--no-check", harn, "a", "--", "b"}, "[a, b]\n"},
		{[]string{"run", harn, "--seed", "3", "--", "a"}, "[a]\n"},
		{[]string{"run", harn}, "[]\n"},
		{[]string{"run", leia, "--", "a", "b"}, "2\ta\tb\n"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitOK || stdout != tc.want {
			t.Errorf("%v: exit %d, stdout %q, want %q\n%s", tc.args, code, stdout, tc.want, stderr)
		}
	}
}

// With --json or --format sarif, a usage error still prints a document on
// stdout: the JSON envelope with error set and data null, or a SARIF log
// whose invocation failed with the message as a notification; exit 2.
func TestUsageErrorsInMachineFormats(t *testing.T) {
	type envelope struct {
		SchemaVersion int              `json:"schemaVersion"`
		OK            *bool            `json:"ok"`
		Data          *json.RawMessage `json:"data"`
		Error         *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Warnings []any `json:"warnings"`
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", "--bogus", "x.harn"}, "unknown flag --bogus"},
		{[]string{"--json", "testdata/no-such-dir"}, "no such file or directory"},
		{[]string{"check", "--format=json"}, "no paths given"},
		{[]string{"frobnicate", "--json"}, `"frobnicate" is not a command`},
		{[]string{"manifest", "--json", "--nope", "x"}, "unknown flag --nope"},
		{[]string{"explain", "--json", "NOPE-1"}, `unknown diagnostic code "NOPE-1"`},
		{[]string{"test", "--json"}, "no paths given"},
		{[]string{"evaluate", "--json", "--mock", "--replay", "x.records.json", "x.leia"}, "exclude each other"},
		{[]string{"llm", "evaluate", "--json", "--request"}, "--request needs a value"},
		{[]string{"fmt", "--json", "--check", "--write", "x.harn"}, "cannot be combined"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		var env envelope
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Errorf("%v: stdout is not JSON (%v): %q", tc.args, err, stdout)
			continue
		}
		if code != exitUsage || env.SchemaVersion != 1 || env.OK == nil || *env.OK || env.Data != nil || env.Error == nil ||
			env.Error.Code != "usage" || !strings.Contains(env.Error.Message, tc.want) || env.Warnings == nil {
			t.Errorf("%v: exit %d, envelope %s", tc.args, code, stdout)
		}
		if !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, stderr, tc.want)
		}
	}
	code, stdout, _ := runCLI(t, "--format", "sarif", "testdata/no-such-dir")
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string `json:"level"`
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []any `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || code != exitUsage {
		t.Fatalf("sarif: exit %d, %v: %q", code, err, stdout)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 || log.Runs[0].Invocations[0].ExecutionSuccessful ||
		len(log.Runs[0].Invocations[0].Notifications) != 1 || log.Runs[0].Invocations[0].Notifications[0].Level != "error" ||
		!strings.Contains(log.Runs[0].Invocations[0].Notifications[0].Message.Text, "no such file or directory") || log.Runs[0].Results == nil {
		t.Errorf("sarif log: %s", stdout)
	}
	// A run that worked has no invocation failure.
	code, stdout, _ = runCLI(t, "--format", "sarif", "testdata/tree/a.harn")
	if code != exitOK || strings.Contains(stdout, "executionSuccessful") {
		t.Errorf("clean sarif run: exit %d\n%s", code, stdout)
	}
	// GitHub annotations get the error as an annotation.
	code, stdout, _ = runCLI(t, "--format", "github", "--bogus", "x")
	if code != exitUsage || !strings.HasPrefix(stdout, "::error title=usage::unknown flag --bogus") {
		t.Errorf("github: exit %d, %q", code, stdout)
	}
}

// harn-check test passes the repository's run suite, and its .error
// files match whatever the working directory: paths in error text are
// relative to the program's folder.
func TestTestCommandIndependentOfWorkingDirectory(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	code, stdout, stderr := runCLI(t, "test", "testdata/run")
	if code != exitOK || !strings.Contains(stdout, " 0 failed,") {
		t.Fatalf("test testdata/run from the repository root: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, tc := range []struct{ dir, arg string }{
		{filepath.Join(root, "testdata", "run", "leia"), "fail"},
		{filepath.Join(root, "testdata", "run", "leia", "fail"), "."},
		{t.TempDir(), filepath.Join(root, "testdata", "run", "leia", "fail")},
	} {
		t.Chdir(tc.dir)
		code, stdout, stderr := runCLI(t, "test", "--filter", "error|exit_code|assign_const", tc.arg)
		if code != exitOK || !strings.Contains(stdout, "5 passed, 0 failed") {
			t.Errorf("test %s from %s: exit %d\n%s%s", tc.arg, tc.dir, code, stdout, stderr)
		}
	}
	// A .error line that names the program by its path from the working
	// directory no longer matches: the text says runtime_error.leia.
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(sub, 0o755)
	writeFile(t, sub, "boom.leia", "error(\"boom\")\n")
	writeFile(t, sub, "boom.error", "error: boom.leia:1:1: boom\n")
	t.Chdir(dir)
	if code, stdout, _ := runCLI(t, "test", "sub"); code != exitOK {
		t.Errorf("relative program path: exit %d\n%s", code, stdout)
	}
	writeFile(t, sub, "boom.error", "error: sub/boom.leia:1:1: boom\n")
	if code, stdout, _ := runCLI(t, "test", "sub"); code != exitFail || !strings.Contains(stdout, "actual error: error: boom.leia:1:1: boom") {
		t.Errorf("a cwd-relative .error must not match: exit %d\n%s", code, stdout)
	}
}

// HARN-NAM-002's page and the checker agree on how far a suggestion
// reaches: a swap of neighbouring letters is one edit, so short names such
// as lable and grete get theirs.
func TestNameSuggestionsMatchTheirPage(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "n.harn", "fn greet(label: string) -> string {\n  return lable\n}\n\nfn main(harness: Harness) {\n  log(grete(\"x\"))\n}\n")
	code, stdout, _ := runCLI(t, "--json", p)
	for _, want := range []string{"Undefined variable: lable (did you mean `label`?)", "call target `grete` is not defined or imported — did you mean `greet`?"} {
		if code != exitFail || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, output lacks %q:\n%s", code, want, stdout)
		}
	}
	for _, c := range []string{"HARN-NAM-001", "HARN-NAM-002"} {
		_, page, _ := runCLI(t, "explain", c)
		if !strings.Contains(page, "within two edits (one for a name of up to five characters; swapping two neighbouring letters counts as one edit") {
			t.Errorf("%s's page does not state the distance the checker uses:\n%s", c, page)
		}
	}
}
