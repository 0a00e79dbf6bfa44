package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// runCLI runs harn-check in-process.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, cacheDir: t.TempDir()}
	code = run(e, args)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExitTwoWithOneLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown code", []string{"explain", "NOPE-1"}, `unknown diagnostic code "NOPE-1"`},
		{"unknown flag", []string{"--bogus", "testdata/tree"}, "check: unknown flag --bogus"},
		{"missing path", []string{"testdata/no-such-dir"}, "testdata/no-such-dir: no such file or directory"},
		{"unknown format", []string{"--format", "xml", "testdata/tree"}, `unknown format "xml"`},
		{"no paths", []string{"check"}, "no paths given"},
		{"wrong kind of file", []string{"testdata/tree/notes.txt"}, "not a .harn or .leia file"},
		{"parse without parser", []string{"parse", "testdata/tree/notes.txt"}, "no parser"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", stderr, tc.want)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	code, out, _ := runCLI(t, "explain", "HARN-TYP-036")
	info, _ := diagnostics.Lookup("HARN-TYP-036")
	if code != 0 || !strings.HasPrefix(out, "HARN-TYP-036 (error): ") || !strings.Contains(out, info.Title) || !strings.Contains(out, "## Wrong") {
		t.Errorf("explain text: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "explain", "--json", "harn-typ-036")
	var j explainJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("explain --json: exit %d, %v\n%s", code, err, out)
	}
	if j.Code != "HARN-TYP-036" || j.Severity != "error" || j.Examples.Wrong.Code == "" || j.Examples.Right.Lang != "harn" ||
		!strings.Contains(out, `"lang": "harn"`) {
		t.Errorf("explain --json: %+v", j)
	}
	code, out, _ = runCLI(t, "explain")
	if code != 0 || strings.Count(out, "\n") != len(diagnostics.Codes()) {
		t.Errorf("explain listing: exit %d, %d lines for %d codes", code, strings.Count(out, "\n"), len(diagnostics.Codes()))
	}
}

func TestDiscoverySkipsVCSAndDependencies(t *testing.T) {
	code, out, _ := runCLI(t, "--json", "testdata/tree")
	if code != 0 && code != 1 {
		t.Fatalf("exit %d", code)
	}
	var env struct {
		Data struct{ Files []struct{ Path string } }
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range env.Data.Files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, " "); got != "testdata/tree/a.harn testdata/tree/sub/b.leia" {
		t.Errorf("discovered %q", got)
	}
}

// A file must never come out clean when it was not fully analysed: a file
// the Harn checker analysed completely may be clean (no HARN-CHK-002 any
// more), and a file with syntax errors carries those instead.
func TestPartialAnalysisIsNotReportedClean(t *testing.T) {
	type result struct {
		Data struct {
			Files []struct {
				Status      string
				Diagnostics []struct{ Code, Message string }
			}
		}
	}
	code, out, _ := runCLI(t, "--format", "json", "testdata/tree/a.harn")
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	ds := r.Data.Files[0].Diagnostics
	if code != exitOK || len(ds) != 0 || r.Data.Files[0].Status != "ok" {
		t.Errorf("exit %d, diagnostics %+v", code, ds)
	}
	code, out, _ = runCLI(t, "--format", "json", "testdata/broken.harn")
	r = result{}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	ds = r.Data.Files[0].Diagnostics
	if code != exitFail || len(ds) != 1 || ds[0].Code != "HARN-PAR-002" || r.Data.Files[0].Status != "error" {
		t.Errorf("broken file: exit %d, diagnostics %+v", code, ds)
	}
}

func TestParse(t *testing.T) {
	code, out, stderr := runCLI(t, "parse", "--sexp", "testdata/tree/a.harn")
	if code != exitOK || !strings.HasPrefix(out, "(source_file (function_declaration") || stderr != "" {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "parse", "testdata/tree/a.harn")
	if code != exitOK || !strings.HasPrefix(out, "File [0,") {
		t.Errorf("outline: exit %d\n%s", code, out)
	}
	code, out, stderr = runCLI(t, "parse", "--sexp", "testdata/broken.harn")
	if code != exitFail || !(strings.Contains(out, "MISSING") || strings.Contains(out, "ERROR")) || !strings.Contains(stderr, "error[HARN-PAR-002]") {
		t.Errorf("broken: exit %d\n%s%s", code, out, stderr)
	}
}

// TestParseLeia runs the parse command on Leia files: a clean file exits 0
// with its tree; a broken one exits 1 and its LEIA1001 diagnostic names
// what was expected.
func TestParseLeia(t *testing.T) {
	code, out, stderr := runCLI(t, "parse", "--sexp", "testdata/tree/sub/b.leia")
	if code != exitOK || !strings.HasPrefix(out, "(source_file (short_var_declaration") || stderr != "" {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "parse", "testdata/tree/sub/b.leia")
	if code != exitOK || !strings.HasPrefix(out, "File [0,") {
		t.Errorf("outline: exit %d\n%s", code, out)
	}
	code, out, stderr = runCLI(t, "parse", "--sexp", "testdata/broken.leia")
	if code != exitFail || !strings.Contains(out, "ERROR") ||
		!strings.Contains(stderr, "error[LEIA1001]: unexpected `b`, expected `)` or `,`") {
		t.Errorf("broken: exit %d\n%s%s", code, out, stderr)
	}
	code, _, stderr = runCLI(t, "parse", "testdata/broken_eof.leia")
	if code != exitFail || !strings.Contains(stderr, "error[LEIA1001]: `{` is never closed") {
		t.Errorf("unclosed block: exit %d\n%s", code, stderr)
	}
}

func TestUnreadableFileAmongManyIsAnIODiagnostic(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.harn"), []byte("fn main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A dangling symlink cannot be read, even by root.
	if err := os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "b.harn")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	code, out, _ := runCLI(t, "--json", dir)
	if code != exitFail {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out, `"code": "HARN-IO-001"`) || !strings.Contains(out, `"source": "io"`) {
		t.Errorf("no io diagnostic:\n%s", out)
	}
	code, _, stderr := runCLI(t, filepath.Join(dir, "b.harn"))
	if code != exitUsage || !strings.Contains(stderr, "b.harn") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("sole unreadable file: exit %d, %q", code, stderr)
	}
}

func TestSARIFRequiredProperties(t *testing.T) {
	code, out, _ := runCLI(t, "--format", "sarif", "../../examples")
	if code == exitUsage {
		t.Fatalf("exit %d", code)
	}
	var log map[string]any
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log["version"] != "2.1.0" || !strings.Contains(log["$schema"].(string), "sarif") {
		t.Errorf("version/$schema: %v %v", log["version"], log["$schema"])
	}
	runs := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	rules := driver["rules"].([]any)
	if driver["name"] != "harn-check" || len(rules) == 0 {
		t.Errorf("driver %v with %d rules", driver["name"], len(rules))
	}
	// SARIF2005: the tool names its home page.
	if uri, _ := driver["informationUri"].(string); !strings.HasPrefix(uri, "https://") {
		t.Errorf("driver informationUri %q", uri)
	}
	ids := map[string]bool{}
	for _, r := range rules {
		rm := r.(map[string]any)
		ids[rm["id"].(string)] = true
		if rm["shortDescription"].(map[string]any)["text"] == "" {
			t.Errorf("rule %v lacks a short description", rm["id"])
		}
		// SARIF1001: a rule's name is a readable identifier, not its id.
		if name, _ := rm["name"].(string); name == "" || name == rm["id"] || strings.Contains(name, "-") {
			t.Errorf("rule %v has name %q", rm["id"], name)
		}
		if help, _ := rm["helpUri"].(string); !strings.HasSuffix(help, "/"+rm["id"].(string)+".md") {
			t.Errorf("rule %v has helpUri %q", rm["id"], help)
		}
	}
	results := run["results"].([]any)
	if len(results) == 0 {
		t.Fatal("no results for examples/")
	}
	for _, r := range results {
		rm := r.(map[string]any)
		if !ids[rm["ruleId"].(string)] {
			t.Errorf("result rule %v not among the rules", rm["ruleId"])
		}
		switch rm["level"] {
		case "error", "warning", "note":
		default:
			t.Errorf("level %v", rm["level"])
		}
		if rm["message"].(map[string]any)["text"] == "" {
			t.Errorf("empty message")
		}
		loc := rm["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		region := loc["region"].(map[string]any)
		if loc["artifactLocation"].(map[string]any)["uri"] == "" || region["startLine"].(float64) < 1 || region["startColumn"].(float64) < 1 {
			t.Errorf("location %v", loc)
		}
	}
}

func TestGitHubFormatGolden(t *testing.T) {
	code, out, _ := runCLI(t, "--format", "github", "testdata/tree", "testdata/broken.harn")
	if code == exitUsage {
		t.Fatalf("exit %d", code)
	}
	path := filepath.Join("testdata", "tree.github.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("github output differs:\n--- got\n%s--- want\n%s", out, want)
	}
}

func TestColorOnlyOnTerminalWithoutNoColor(t *testing.T) {
	for _, tc := range []struct {
		terminal bool
		noColor  string
		flag     string
		want     bool
	}{
		{true, "", "auto", true},
		{false, "", "auto", false},
		{true, "1", "auto", false},
		{false, "", "always", true},
		{true, "", "never", false},
	} {
		var out bytes.Buffer
		e := &env{stdout: &out, stderr: &out, isTerminal: tc.terminal, cacheDir: t.TempDir(), getenv: func(k string) string {
			if k == "NO_COLOR" {
				return tc.noColor
			}
			return ""
		}}
		run(e, []string{"--color", tc.flag, "testdata/tree/a.harn"})
		if got := strings.Contains(out.String(), "\x1b["); got != tc.want {
			t.Errorf("terminal=%v NO_COLOR=%q --color=%s: colour %v", tc.terminal, tc.noColor, tc.flag, got)
		}
	}
}

func TestManifestCommand(t *testing.T) {
	code, out, _ := runCLI(t, "manifest", "--json", "testdata/tree")
	var doc manifestDocument
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	// a.harn checks clean and declares no site: an empty census. b.leia
	// is not checked yet: null.
	var a struct {
		Schema string
		Sites  []json.RawMessage
	}
	if len(doc.Files) != 2 || doc.Files[0].Path != "testdata/tree/a.harn" || json.Unmarshal(doc.Files[0].PredicateManifest, &a) != nil ||
		a.Schema != "harn.predicate_sites.v2" || a.Sites == nil || len(a.Sites) != 0 || string(doc.Files[1].PredicateManifest) != "null" {
		t.Errorf("document %+v", doc)
	}
	code, out, _ = runCLI(t, "manifest", "testdata/tree/a.harn")
	if code != exitOK || out != "testdata/tree/a.harn: 0 evaluation sites\n" {
		t.Errorf("text: exit %d %q", code, out)
	}
}

func TestWarmRunEqualsColdRun(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"json", "text", "sarif", "github"} {
		var outs []string
		for i := 0; i < 2; i++ {
			code, out, _ := runCLI(t, "--format", format, "--cache-dir", dir, "testdata/tree", "testdata/broken.harn")
			if code != exitFail {
				t.Fatalf("exit %d", code)
			}
			outs = append(outs, out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: warm output differs from cold", format)
		}
		_, uncached, _ := runCLI(t, "--format", format, "--no-cache", "testdata/tree", "testdata/broken.harn")
		if uncached != outs[0] {
			t.Errorf("%s: cached output differs from --no-cache", format)
		}
	}
	// The cold run wrote one pack; the warm runs found every file in it
	// and stored nothing.
	packs, _ := filepath.Glob(filepath.Join(dir, "packs", "*.pack"))
	if len(packs) != 1 {
		t.Errorf("%d cache packs, want the cold run's one", len(packs))
	}
}

// With the cache on, editing an imported helper must invalidate the
// importer's cached result, and a truncated cache entry is survived.
func TestCacheFollowsImports(t *testing.T) {
	dir := t.TempDir()
	cacheDir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("helper.harn", "pub fn helper() -> int {\n  return 1\n}\n")
	write("main.harn", "import {helper} from \"./helper\"\n\nfn main() {\n  log(helper())\n}\n")
	run := func() (int, string) {
		code, out, _ := runCLI(t, "--json", "--cache-dir", cacheDir, filepath.Join(dir, "main.harn"))
		return code, out
	}
	cold, coldOut := run()
	warm, warmOut := run()
	if cold != exitOK || warm != exitOK || coldOut != warmOut {
		t.Fatalf("clean run: exit %d/%d, warm differs: %v", cold, warm, coldOut != warmOut)
	}
	write("helper.harn", "pub fn helper() -> int {\n  return \"one\" - 1\n}\n")
	code, out := run()
	if code != exitFail || !strings.Contains(out, "HARN-MOD-007") || !strings.Contains(out, `"predicate_manifest": null`) {
		t.Errorf("after breaking the helper: exit %d\n%s", code, out)
	}
	// Truncate every pack: the next run ignores them and rewrites them.
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "packs", "*.pack"))
	if len(entries) == 0 {
		t.Fatal("no cache packs written")
	}
	for _, e := range entries {
		data, _ := os.ReadFile(e)
		os.WriteFile(e, data[:len(data)/3], 0o644)
	}
	code2, out2 := run()
	if code2 != code || out2 != out {
		t.Errorf("a truncated cache changed the result")
	}
	code3, out3 := run()
	if code3 != code || out3 != out {
		t.Errorf("the rewritten cache changed the result")
	}
}
