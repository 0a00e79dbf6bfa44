package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shardRunner runs the CLI in process with SOURCE_DATE_EPOCH fixed (so
// test and evaluate outputs hold no clock) and one check cache.
func shardRunner(t *testing.T) func(args ...string) (int, string, string) {
	cache := t.TempDir()
	return func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		getenv := func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return "1700000000"
			}
			return ""
		}
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv, cacheDir: cache}
		return run(e, args), out.String(), errb.String()
	}
}

// TestShardMergeEqualsUnsharded: every command that takes --shard
// (check, lint, test, evaluate), over the repository's testdata and
// examples split with --shard i/n, n = 1..4, gives outputs that merge (in
// any order) into the unsharded output byte for byte, with the same exit
// status, in every format merge joins: check and lint --json and
// --format sarif, test --json and --junit, evaluate --json and --report.
func TestShardMergeEqualsUnsharded(t *testing.T) {
	runIn := shardRunner(t)
	paths := []string{"../../testdata", "../../examples"}
	// Each command runs once per shard; outputs names its output files
	// (besides stdout, "-") and the flags that write them.
	for _, tc := range []struct {
		cmd     string
		flags   []string
		outputs []string // "-" is stdout; others are written by flags naming OUT/<name>
	}{
		{"check", []string{"--format", "json"}, []string{"-"}},
		{"check", []string{"--format", "sarif"}, []string{"-"}},
		{"lint", []string{"--format", "json"}, []string{"-"}},
		{"lint", []string{"--format", "sarif"}, []string{"-"}},
		{"test", []string{"--json", "--junit", "OUT/junit.xml"}, []string{"-", "junit.xml"}},
		// merge's exit status for evaluate reports is --gate's.
		{"evaluate", []string{"--mock", "--gate", "--json", "--report", "OUT/report.json"}, []string{"-", "report.json"}},
	} {
		name := tc.cmd + strings.Join(tc.flags[:2], "")
		if tc.cmd == "evaluate" {
			name = "evaluate--json--report"
		}
		// runOnce runs the command (with extra flags) writing its files
		// into dir, and returns each output's bytes.
		runOnce := func(t *testing.T, dir string, extra ...string) (int, [][]byte) {
			t.Helper()
			args := []string{tc.cmd}
			for _, f := range tc.flags {
				args = append(args, strings.Replace(f, "OUT", dir, 1))
			}
			code, stdout, stderr := runIn(append(append(args, extra...), paths...)...)
			if code == exitUsage {
				t.Fatalf("%v: %s", args, stderr)
			}
			outs := [][]byte{[]byte(stdout)}
			for _, o := range tc.outputs[1:] {
				b, err := os.ReadFile(filepath.Join(dir, o))
				if err != nil {
					t.Fatal(err)
				}
				outs = append(outs, b)
			}
			return code, outs
		}
		wantCode, want := runOnce(t, t.TempDir())
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("%s-%d", name, n), func(t *testing.T) {
				dir := t.TempDir()
				files := make([][]string, len(tc.outputs))
				for i := n; i >= 1; i-- { // reversed: merge orders them
					sdir := filepath.Join(dir, strconv.Itoa(i))
					if err := os.Mkdir(sdir, 0o755); err != nil {
						t.Fatal(err)
					}
					_, outs := runOnce(t, sdir, "--shard", fmt.Sprintf("%d/%d", i, n))
					for k, b := range outs {
						f := filepath.Join(sdir, "out-"+strconv.Itoa(k))
						write(t, f, b)
						files[k] = append(files[k], f)
					}
				}
				if tc.cmd == "evaluate" {
					// A merged report renders as the whole run's text and HTML.
					for _, format := range []string{"text", "html"} {
						_, whole, _ := runIn(append([]string{"evaluate", "--mock", "--format", format}, paths...)...)
						if _, got, stderr := runIn(append([]string{"merge", "--format", format}, files[1]...)...); got != whole {
							t.Errorf("merge --format %s: %s\n%s", format, stderr, firstDifference(got, whole))
						}
					}
				}
				for k, o := range tc.outputs {
					code, got, stderr := runIn(append([]string{"merge"}, files[k]...)...)
					if got != string(want[k]) || code != wantCode {
						t.Errorf("merge of %s: exit %d (want %d), %s; output differs from the unsharded run: %d vs %d bytes\n%s",
							o, code, wantCode, stderr, len(got), len(want[k]), firstDifference(got, string(want[k])))
					}
				}
			})
		}
	}
	// Shards that do not make one run are refused.
	dir := t.TempDir()
	shard := func(spec string, extra ...string) string {
		_, out, _ := runIn(append(append([]string{"check", "--json"}, extra...), append(paths, "--shard", spec)...)...)
		f := filepath.Join(dir, strings.ReplaceAll(spec, "/", "-")+strings.Join(extra, "")+".json")
		write(t, f, []byte(out))
		return f
	}
	a, b, c := shard("1/2"), shard("2/2"), shard("1/3")
	_, full, _ := runIn(append([]string{"check", "--json"}, paths...)...)
	unsharded := filepath.Join(dir, "full.json")
	write(t, unsharded, []byte(full))
	sarif := filepath.Join(dir, "x.sarif")
	_, s, _ := runIn(append([]string{"check", "--format", "sarif", "--shard", "2/2"}, paths...)...)
	write(t, sarif, []byte(s))
	for _, tc := range []struct {
		files []string
		msg   string
	}{
		{[]string{a}, "shard 2/2 missing"},
		{[]string{a, a, b}, "are both shard 1/2"},
		{[]string{a, c}, "not the same run"},
		{[]string{a, unsharded}, "not the output of a --shard run"},
		{[]string{a, sarif}, "merge outputs of one format"},
	} {
		code, out, stderr := runIn(append([]string{"merge"}, tc.files...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("merge %v: exit %d, %q, want %q", tc.files, code, stderr, tc.msg)
		}
	}
}

// A bad --shard value is a usage error (exit 2, a one-line message saying
// what is wanted) on every command that takes it, each of which documents
// it; so are the combinations a shard cannot make.
func TestShardUsageErrors(t *testing.T) {
	runIn := shardRunner(t)
	for _, cmd := range []string{"check", "lint", "test", "evaluate"} {
		for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0", "-1/2", "1/2/3"} {
			code, stdout, stderr := runIn(cmd, "--shard", bad, "../../examples")
			want := fmt.Sprintf("harn-check: %s: --shard %q: want i/n with 1 <= i <= n, such as 2/4", cmd, bad)
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s --shard %s: exit %d, stdout %q, stderr %q, want %q", cmd, bad, code, stdout, stderr, want)
			}
		}
		if code, stdout, _ := runIn(cmd, "-h"); code != exitOK || !strings.Contains(stdout, "--shard I/N") || !strings.Contains(stdout, "harn-check merge") {
			t.Errorf("%s -h: exit %d, no --shard I/N in %s", cmd, code, stdout)
		}
	}
	dir := t.TempDir()
	report, checked := filepath.Join(dir, "r.json"), filepath.Join(dir, "check.json")
	write(t, report, []byte("{}"))
	_, out, _ := runIn("check", "--json", "--shard", "1/1", "../../examples")
	write(t, checked, []byte(out))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"evaluate", "--shard", "1/2", "--replay", "../../examples/leia/support_agent.records.json", "../../examples/leia"}, "cannot be split"},
		{[]string{"evaluate", "--shard", "1/2", "--record", filepath.Join(dir, "x.records.json"), "../../examples/leia"}, "cannot be split"},
		{[]string{"evaluate", "--shard", "1/2", "--baseline", report, "--mock", "../../examples/leia"}, "compare the merged report"},
		{[]string{"merge", "--baseline", report, checked}, "--baseline compares evaluate reports"},
		{[]string{"merge", "--format", "text", checked}, "--format text renders evaluate reports"},
		{[]string{"merge", "--format", "xml", checked}, `--format "xml": want json, text or html`},
	} {
		code, stdout, stderr := runIn(tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// test's merged outputs equal the unsharded ones where cases fail too:
// the failures, their messages and the exit status 1 come through.
func TestShardMergeTestFailures(t *testing.T) {
	runIn := shardRunner(t)
	suite := t.TempDir()
	for name, src := range map[string]string{
		"a_pass.harn": "println(1)\n", "a_pass.expected": "1\n",
		"b_wrong.harn": "println(\"x < y & z\")\n", "b_wrong.expected": "something else\n",
		"c_noerror.harn": "println(3)\n", "c_noerror.error": "boom\n",
		"d_pass.harn": "println(4)\n", "d_pass.expected": "4\n",
		"e_throws.harn": "throw \"bad\"\n", "e_throws.expected": "5\n",
	} {
		write(t, filepath.Join(suite, name), []byte(src))
	}
	out := t.TempDir()
	whole := filepath.Join(out, "whole.xml")
	wantCode, want, _ := runIn("test", "--json", "--junit", whole, suite)
	wantXML, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if wantCode != exitFail || strings.Count(want, `"passed": false`) != 3 {
		t.Fatalf("unsharded: exit %d, %s", wantCode, want)
	}
	var jsons, xmls []string
	for n := 1; n <= 4; n++ {
		jsons, xmls = nil, nil
		for i := 1; i <= n; i++ {
			x := filepath.Join(out, fmt.Sprintf("%d-%d.xml", i, n))
			_, js, stderr := runIn("test", "--json", "--junit", x, "--shard", fmt.Sprintf("%d/%d", i, n), suite)
			j := filepath.Join(out, fmt.Sprintf("%d-%d.json", i, n))
			write(t, j, []byte(js))
			if !strings.Contains(js, `"shard"`) {
				t.Fatalf("shard %d/%d: %s %s", i, n, js, stderr)
			}
			jsons, xmls = append(jsons, j), append(xmls, x)
		}
		for _, tc := range []struct {
			files []string
			want  string
		}{{jsons, want}, {xmls, string(wantXML)}} {
			code, got, stderr := runIn(append([]string{"merge"}, tc.files...)...)
			if code != wantCode || got != tc.want {
				t.Errorf("n=%d merge %s: exit %d, %s\n%s", n, filepath.Ext(tc.files[0]), code, stderr, firstDifference(got, tc.want))
			}
		}
	}
	// The text output says which part it ran.
	if _, stdout, _ := runIn("test", "--shard", "2/3", suite); !strings.HasSuffix(stdout, "\n0 passed, 2 failed, 2 total in shard 2/3 of 5 (0.0s)\n") {
		t.Errorf("test --shard 2/3: %q", stdout)
	}
	// Parts of 4 that do not make the run are refused, in both formats.
	wholeJSON := filepath.Join(out, "whole.json")
	write(t, wholeJSON, []byte(want))
	for _, tc := range []struct {
		files []string
		msg   string
	}{
		{jsons[:3], "shard 4/4 missing"},
		{xmls[1:], "shard 1/4 missing"},
		{append([]string{xmls[0]}, xmls...), "are both shard 1/4"},
		{[]string{jsons[0], xmls[1]}, "merge outputs of one format"},
		{[]string{jsons[0], wholeJSON}, "not the output of a --shard run"},
		{[]string{xmls[0], whole}, "not the output of a --shard run"},
	} {
		code, stdout, stderr := runIn(append([]string{"merge"}, tc.files...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("merge %v: exit %d, %q, want %q", tc.files, code, stderr, tc.msg)
		}
	}
}

// firstDifference shows where two outputs part.
func firstDifference(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}

// The README's sharding section names every command that takes --shard
// in its table of what merge joins, and its workflow merges what each
// shards; a command gaining --shard must be documented there.
func TestReadmeShardingSection(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Sharding a run over CI machines\n")
	if !ok {
		t.Fatal("README lost its sharding section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var sharded []string
	for _, path := range commandPaths() {
		if _, stdout, _ := runCLI(t, append(path, "-h")...); strings.Contains(stdout, "--shard I/N") {
			name := strings.Join(path, " ")
			sharded = append(sharded, name)
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("the sharding section does not name %s, which takes --shard", name)
			}
		}
	}
	if len(sharded) != 4 {
		t.Errorf("commands taking --shard: %v, want check, lint, test and evaluate", sharded)
	}
	for _, line := range []string{"./harn-check test --junit", "./harn-check evaluate --mock --report", "./harn-check check --format sarif",
		"merge --output junit.xml", "merge --output evaluate.json", "merge --output harn.sarif"} {
		if !strings.Contains(section, line) {
			t.Errorf("the sharding workflow lacks %q", line)
		}
	}
}
