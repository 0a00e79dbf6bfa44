package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runCLIIn runs harn-check in-process with stdin.
func runCLIIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, cacheDir: t.TempDir()}
	code = run(e, args)
	return code, out.String(), errb.String()
}

// envelopeCodes returns "path:line CODE severity" for every diagnostic of
// a JSON envelope.
func envelopeCodes(t *testing.T, out string) []string {
	t.Helper()
	var doc struct {
		Data struct {
			Files []struct {
				Path        string `json:"path"`
				Diagnostics []struct {
					Code     string `json:"code"`
					Severity string `json:"severity"`
					Line     int    `json:"line"`
				} `json:"diagnostics"`
			} `json:"files"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not a JSON envelope: %v\n%s", err, out)
	}
	var got []string
	for _, f := range doc.Data.Files {
		for _, d := range f.Diagnostics {
			got = append(got, f.Path+":"+itoa(d.Line)+" "+d.Code+" "+d.Severity)
		}
	}
	return got
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

const (
	// typo7 is a Harn line with HARN-TYP-007 (an error).
	typo7 = `  let x: int = "s"`
	// undefLeia is a Leia line with LEIA4001 (an error).
	undefLeia = `x := nowhere`
)

func harnProgram(lines ...string) string {
	return "pipeline main(task) {\n" + strings.Join(lines, "\n") + "\n  log(1)\n}\n"
}

// TestSuppressionComments: // harn-ignore CODE: reason silences CODE on
// its line (after code) or on the next line (alone), harn-ignore-file in
// the whole file, the same in Leia; an unused one is HARN-SUP-001 and one
// without codes or a reason HARN-SUP-002.
func TestSuppressionComments(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string
	}{
		{"none", "a.harn", harnProgram(typo7), []string{"a.harn:2 HARN-TYP-007 error"}},
		{"same line", "a.harn", harnProgram(typo7 + " // harn-ignore HARN-TYP-007: a test of the rule"), nil},
		{"line above", "a.harn", harnProgram("  // harn-ignore HARN-TYP-007: a test", typo7), nil},
		{"two lines above", "a.harn", harnProgram("  // harn-ignore HARN-TYP-007: a test", "", typo7),
			[]string{"a.harn:2 HARN-SUP-001 warning", "a.harn:4 HARN-TYP-007 error"}},
		{"file", "a.harn", "// harn-ignore-file HARN-TYP-007: fixture\n" + harnProgram(typo7, `  let z: int = "t"`), nil},
		{"other code", "a.harn", harnProgram(typo7 + " // harn-ignore HARN-TYP-002: wrong code"),
			[]string{"a.harn:2 HARN-TYP-007 error", "a.harn:2 HARN-SUP-001 warning"}},
		{"one of two used", "a.harn", harnProgram(typo7 + " // harn-ignore HARN-TYP-002, HARN-TYP-007: one"),
			[]string{"a.harn:2 HARN-SUP-001 warning"}},
		{"no reason", "a.harn", harnProgram(typo7 + " // harn-ignore HARN-TYP-007"), []string{"a.harn:2 HARN-SUP-002 warning"}},
		{"no code", "a.harn", harnProgram(typo7 + " // harn-ignore: why"),
			[]string{"a.harn:2 HARN-TYP-007 error", "a.harn:2 HARN-SUP-002 warning"}},
		{"in a string", "a.harn", harnProgram(`  let s = "// harn-ignore HARN-TYP-007: no"`, typo7), []string{"a.harn:3 HARN-TYP-007 error"}},
		{"leia", "a.leia", undefLeia + " // harn-ignore LEIA4001: defined by the host\n", nil},
		{"leia above", "a.leia", "// harn-ignore LEIA4001: defined by the host\n" + undefLeia + "\n", nil},
		{"leia unused", "a.leia", "// harn-ignore LEIA4001: stale\nx := 1\nprint(x)\n", []string{"a.leia:1 HARN-SUP-001 warning"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, tc.file), []byte(tc.src))
			_, out, stderr := runCLI(t, "check", "--json", "--no-cache", filepath.Join(dir, tc.file))
			got := envelopeCodes(t, out)
			for i := range got {
				got[i] = strings.TrimPrefix(got[i], filepath.ToSlash(dir)+"/")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q\n%s", got, tc.want, stderr)
			}
		})
	}
}

// TestCheckFix: --fix applies the safe fixes, says what it fixed, and a
// second run changes nothing (idempotent); a read-only file is an error
// (exit 2) and left as it was; --unsafe-fixes goes with --fix.
func TestCheckFix(t *testing.T) {
	dir := t.TempDir()
	src := harnProgram("  // harn-ignore HARN-TYP-004: stale", "  let y = 1", typo7+" // harn-ignore HARN-TYP-002, HARN-TYP-007: half stale")
	path := filepath.Join(dir, "a.harn")
	write(t, path, []byte(src))
	code, out, stderr := runCLI(t, "check", "--fix", "--no-cache", path)
	want := harnProgram("  let y = 1", typo7+" // harn-ignore HARN-TYP-007: half stale")
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Fatalf("after --fix:\n%s\nwant:\n%s", got, want)
	}
	if code != exitOK || !strings.Contains(stderr, "fixed 2 problems in "+filepath.ToSlash(path)+" (HARN-SUP-001 ×2)") ||
		!strings.Contains(out, "ok") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// Idempotent: nothing more to fix, the file untouched.
	info, _ := os.Stat(path)
	code, _, stderr = runCLI(t, "check", "--fix", "--no-cache", path)
	again, _ := os.Stat(path)
	if code != exitOK || !strings.Contains(stderr, "nothing to fix") || !again.ModTime().Equal(info.ModTime()) {
		t.Errorf("second --fix: exit %d, %q", code, stderr)
	}
	// Read-only: an error naming the file, the content kept.
	ro := filepath.Join(dir, "ro.harn")
	write(t, ro, []byte(src))
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "check", "--fix", "--no-cache", ro)
	if got, _ := os.ReadFile(ro); code != exitUsage || string(got) != src || !strings.Contains(stderr, "read-only") {
		t.Errorf("read-only: exit %d, %q, content changed: %v", code, stderr, string(got) != src)
	}
	if code, _, _ := runCLI(t, "check", "--unsafe-fixes", path); code != exitUsage {
		t.Errorf("--unsafe-fixes without --fix: exit %d", code)
	}
}

// TestProjectLintConfig: harn.toml's [lint] selects and ignores codes,
// sets severities, per path with [[lint.overrides]]; an unknown key is
// HARN-CFG-001 naming it, for Harn and Leia files alike.
func TestProjectLintConfig(t *testing.T) {
	files := map[string]string{
		"a.harn":       harnProgram(typo7),
		"tests/t.harn": harnProgram(typo7),
		"b.leia":       undefLeia + "\n",
	}
	tests := []projectCase{
		{"none", "", []string{"a.harn:2 HARN-TYP-007 error", "b.leia:1 LEIA4001 error", "tests/t.harn:2 HARN-TYP-007 error"}, ""},
		{"ignore", "[lint]\nignore = [\"HARN-TYP\"]\n", []string{"b.leia:1 LEIA4001 error"}, ""},
		{"upstream disabled", "[lint]\ndisabled = [\"LEIA4001\"]\n", []string{"a.harn:2 HARN-TYP-007 error", "tests/t.harn:2 HARN-TYP-007 error"}, ""},
		{"select", "[lint]\nselect = [\"LEIA\"]\n", []string{"b.leia:1 LEIA4001 error"}, ""},
		{"severity", "[lint.severity]\n\"HARN-TYP-007\" = \"warning\"\nLEIA4 = \"off\"\n",
			[]string{"a.harn:2 HARN-TYP-007 warning", "tests/t.harn:2 HARN-TYP-007 warning"}, ""},
		{"per path", "[[lint.overrides]]\npaths = [\"tests/**\"]\nseverity = { \"HARN-TYP-007\" = \"info\" }\n",
			[]string{"a.harn:2 HARN-TYP-007 error", "b.leia:1 LEIA4001 error", "tests/t.harn:2 HARN-TYP-007 info"}, ""},
		{"per path ignore", "[lint]\nselect = [\"HARN\"]\n[[lint.overrides]]\npaths = [\"tests/*.harn\"]\nignore = [\"HARN-TYP-007\"]\n",
			[]string{"a.harn:2 HARN-TYP-007 error"}, ""},
		{"upstream tables", "[package]\nname = \"x\"\n[fmt]\nline_width = 90\n[lint]\ncomplexity_threshold = 20\n",
			[]string{"a.harn:2 HARN-TYP-007 error", "b.leia:1 LEIA4001 error", "tests/t.harn:2 HARN-TYP-007 error"}, ""},
		{"unknown table", "[lnt]\nignore = []\n",
			[]string{"a.harn:1 HARN-CFG-001 error", "a.harn:2 HARN-TYP-007 error", "b.leia:1 HARN-CFG-001 error", "b.leia:1 LEIA4001 error",
				"tests/t.harn:1 HARN-CFG-001 error", "tests/t.harn:2 HARN-TYP-007 error"}, `unknown key \"lnt\" (did you mean lint?)`},
		{"unknown lint key", "[lint]\nignroe = [\"HARN\"]\n", nil, `unknown key \"lint.ignroe\" (did you mean lint.ignore?)`},
		{"unknown code", "[lint]\nignore = [\"HARN-TPY\"]\n", nil, `names no diagnostic code`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, files, "check") })
	}
}

// projectCase is a harn.toml and what a command reports with it: the
// codes (envelopeCodes), and a message HARN-CFG-001 has ("" for none; a
// nil want then asks for nothing else).
type projectCase struct {
	name, toml string
	want       []string
	wantMsg    string
}

// run writes files and the case's harn.toml into a folder and runs cmd
// --json on it from there.
func (tc projectCase) run(t *testing.T, files map[string]string, cmd string) {
	dir := t.TempDir()
	for name, src := range files {
		write(t, filepath.Join(dir, name), []byte(src))
	}
	if tc.toml != "" {
		write(t, filepath.Join(dir, "harn.toml"), []byte(tc.toml))
	}
	t.Chdir(dir)
	_, out, stderr := runCLI(t, cmd, "--json", "--no-cache", ".")
	if tc.wantMsg != "" {
		if !strings.Contains(out, "HARN-CFG-001") || !strings.Contains(out, tc.wantMsg) {
			t.Errorf("want HARN-CFG-001 with %q:\n%s", tc.wantMsg, out)
		}
		if tc.want == nil {
			return
		}
	}
	if got := envelopeCodes(t, out); !slices.Equal(got, tc.want) {
		t.Errorf("got %q, want %q\n%s", got, tc.want, stderr)
	}
}

// TestCheckStdin: check - reads stdin; --stdin-filename names it and is
// where harn.toml (and imports) are found from.
func TestCheckStdin(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "proj", "harn.toml"), []byte("[lint.severity]\n\"HARN-TYP-007\" = \"warning\"\n"))
	t.Chdir(dir)
	code, out, stderr := runCLIIn(t, harnProgram(typo7), "check", "--json", "-")
	if got := envelopeCodes(t, out); code != exitFail || !slices.Equal(got, []string{"<stdin>:2 HARN-TYP-007 error"}) {
		t.Errorf("check -: exit %d, %q, %s", code, got, stderr)
	}
	code, out, stderr = runCLIIn(t, harnProgram(typo7), "check", "--json", "--stdin-filename", "proj/sub/x.harn", "-")
	if got := envelopeCodes(t, out); code != exitOK || !slices.Equal(got, []string{"proj/sub/x.harn:2 HARN-TYP-007 warning"}) {
		t.Errorf("--stdin-filename: exit %d, %q, %s", code, got, stderr)
	}
	code, out, _ = runCLIIn(t, undefLeia+"\n", "check", "--json", "--stdin-filename", "y.leia", "-")
	if got := envelopeCodes(t, out); code != exitFail || !slices.Equal(got, []string{"y.leia:1 LEIA4001 error"}) {
		t.Errorf("Leia on stdin: exit %d, %q", code, got)
	}
	for _, args := range [][]string{{"check", "--stdin-filename", "x.harn", "a.harn"}, {"check", "-", "a.harn"}, {"check", "--fix", "-"}, {"check", "--stdin-filename", "x.txt", "-"}} {
		if code, _, _ := runCLIIn(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
}

// TestLintFix: lint --fix applies safe fixes only; --unsafe-fixes the
// rest; each run says what it fixed and how many unsafe fixes it left.
func TestLintFix(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.harn")
	src := "fn f(v) {\n  if v == true {\n    log(1)\n  }\n}\n\npipeline main(task) {\n  let b = true\n  if b == true {\n    log(2)\n  }\n  f(b)\n}\n"
	write(t, path, []byte(src))
	safe := strings.Replace(src, "b == true", "b", 1)
	code, _, stderr := runCLI(t, "lint", "--fix", "--no-cache", path)
	if got, _ := os.ReadFile(path); code != exitOK || string(got) != safe ||
		!strings.Contains(stderr, "fixed 1 problem in 1 file; 1 more fix available with --unsafe-fixes") {
		t.Fatalf("lint --fix: exit %d, %q\n%s", code, stderr, got)
	}
	code, _, stderr = runCLI(t, "lint", "--fix", "--no-cache", path)
	if got, _ := os.ReadFile(path); code != exitOK || string(got) != safe || !strings.Contains(stderr, "nothing to fix; 1 more fix") {
		t.Errorf("second lint --fix: exit %d, %q", code, stderr)
	}
	code, out, stderr := runCLI(t, "lint", "--fix", "--unsafe-fixes", "--no-cache", path)
	if got, _ := os.ReadFile(path); code != exitOK || string(got) != strings.Replace(safe, "v == true", "v", 1) ||
		!strings.Contains(stderr, "fixed 1 problem in "+filepath.ToSlash(path)+" (HARN-LNT-032 ×1)") || !strings.Contains(out, "no problems") {
		t.Errorf("lint --fix --unsafe-fixes: exit %d, %q %q\n%s", code, out, stderr, got)
	}
}

// TestProjectLintRules: harn.toml's [lint] names lint rules as upstream
// does (disabled = ["comparison-to-bool"]), turns on a rule that is off
// by default (require_file_header, or its name in select), sets the
// complexity threshold, a rule's severity by name and per path glob; a
// misspelt rule name is HARN-CFG-001 suggesting the rule.
func TestProjectLintRules(t *testing.T) {
	prog := "fn branchy(x: int) -> int {\n  if x > 1 {\n    return 1\n  }\n  return 0\n}\n\npipeline default(task) {\n  const ok = branchy(1) > 0\n  log(ok == true)\n}\n"
	tests := []projectCase{
		{"defaults", "", []string{"a.harn:10 HARN-LNT-032 warning", "tests/t.harn:10 HARN-LNT-032 warning"}, ""},
		{"upstream disabled by name", "[lint]\ndisabled = [\"comparison-to-bool\"]\n", []string{}, ""},
		{"complexity threshold", "[lint]\ncomplexity_threshold = 1\n",
			[]string{"a.harn:1 HARN-LNT-002 warning", "a.harn:10 HARN-LNT-032 warning", "tests/t.harn:1 HARN-LNT-002 warning", "tests/t.harn:10 HARN-LNT-032 warning"}, ""},
		{"require_file_header", "[lint]\nrequire-file-header = true\n",
			[]string{"a.harn:1 HARN-LNT-045 warning", "a.harn:10 HARN-LNT-032 warning", "tests/t.harn:1 HARN-LNT-045 warning", "tests/t.harn:10 HARN-LNT-032 warning"}, ""},
		{"opt-in rule selected by name", "[lint]\nselect = [\"require-file-header\"]\n",
			[]string{"a.harn:1 HARN-LNT-045 warning", "tests/t.harn:1 HARN-LNT-045 warning"}, ""},
		{"a prefix turns no opt-in rule on", "[lint]\nselect = [\"HARN-LNT\"]\n", []string{"a.harn:10 HARN-LNT-032 warning", "tests/t.harn:10 HARN-LNT-032 warning"}, ""},
		{"severity by name and per path", "[lint.severity]\ncomparison-to-bool = \"error\"\n[[lint.overrides]]\npaths = [\"tests/**\"]\nseverity = { comparison-to-bool = \"info\" }\n",
			[]string{"a.harn:10 HARN-LNT-032 error", "tests/t.harn:10 HARN-LNT-032 info"}, ""},
		{"opt-in per path", "[[lint.overrides]]\npaths = [\"tests/**\"]\nselect = [\"HARN-LNT-045\"]\ndisabled = [\"comparison-to-bool\"]\n",
			[]string{"a.harn:10 HARN-LNT-032 warning", "tests/t.harn:1 HARN-LNT-045 warning"}, ""},
		{"misspelt rule", "[lint]\ndisabled = [\"comparision-to-bool\"]\n", nil, `names no diagnostic code or lint rule (did you mean comparison-to-bool?)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, map[string]string{"a.harn": prog, "tests/t.harn": prog}, "lint") })
	}
}
