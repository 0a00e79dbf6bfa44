package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/format"
)

// fmtFixture writes files into a temporary directory and returns it.
func fmtFixture(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	messyHarn     = "fn f(){return 1}\n"
	formattedHarn = "fn f() {\n  return 1\n}\n"
	messyLeia     = "if a {\nb()\n}\n"
	formattedLeia = "if a {\n    b()\n}\n"
)

// runFmtCLI runs harn-check fmt in-process with stdin.
func runFmtCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, cacheDir: t.TempDir()}
	code := run(e, append([]string{"fmt"}, args...))
	return code, out.String(), errb.String()
}

func TestFmtPrintsFormattedText(t *testing.T) {
	dir := fmtFixture(t, map[string]string{"a.harn": messyHarn})
	code, out, errs := runFmtCLI(t, "", filepath.Join(dir, "a.harn"))
	if code != exitOK || out != formattedHarn || errs != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.harn")); string(got) != messyHarn {
		t.Error("printing must not write the file")
	}
}

func TestFmtCheckListsFilesThatWouldChange(t *testing.T) {
	dir := fmtFixture(t, map[string]string{
		"a.harn": messyHarn, "b.harn": formattedHarn, "sub/c.leia": messyLeia, "sub/d.leia": formattedLeia,
		".git/e.harn": messyHarn,
	})
	code, out, errs := runFmtCLI(t, "", "--check", dir)
	want := filepath.ToSlash(filepath.Join(dir, "a.harn")) + "\n" + filepath.ToSlash(filepath.Join(dir, "sub", "c.leia")) + "\n"
	if code != exitFail || out != want || errs != "" {
		t.Errorf("exit %d, stdout %q (want %q), stderr %q", code, out, want, errs)
	}
	code, out, _ = runFmtCLI(t, "", "--check", filepath.Join(dir, "b.harn"), filepath.Join(dir, "sub", "d.leia"))
	if code != exitOK || out != "" {
		t.Errorf("formatted files: exit %d, stdout %q", code, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.harn")); string(got) != messyHarn {
		t.Error("--check must not write")
	}
}

func TestFmtWriteRewritesOnlyChangedFiles(t *testing.T) {
	dir := fmtFixture(t, map[string]string{"a.harn": messyHarn, "b.leia": messyLeia, "c.harn": formattedHarn})
	before, _ := os.Stat(filepath.Join(dir, "c.harn"))
	code, out, errs := runFmtCLI(t, "", "--write", dir)
	want := "reformatted " + filepath.Join(dir, "a.harn") + "\nreformatted " + filepath.Join(dir, "b.leia") + "\n2 files reformatted, 1 file left unchanged\n"
	if code != exitOK || out != want || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for name, want := range map[string]string{"a.harn": formattedHarn, "b.leia": formattedLeia, "c.harn": formattedHarn} {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	info, _ := os.Stat(filepath.Join(dir, "a.harn"))
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", info.Mode().Perm())
	}
	after, _ := os.Stat(filepath.Join(dir, "c.harn"))
	if !after.ModTime().Equal(before.ModTime()) {
		t.Error("an unchanged file was rewritten")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*fmt-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := fmtFixture(t, map[string]string{"a.harn": messyHarn})
	path := filepath.ToSlash(filepath.Join(dir, "a.harn"))
	code, out, _ := runFmtCLI(t, "", "--diff", path)
	want := "--- " + path + "\n+++ " + path + " (formatted)\n@@ -1 +1,3 @@\n-fn f(){return 1}\n+fn f() {\n+  return 1\n+}\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, diff:\n%s\nwant:\n%s", code, out, want)
	}
	code, out, _ = runFmtCLI(t, "", "--diff", "--check", path)
	if code != exitFail || out != want {
		t.Errorf("--diff --check: exit %d, stdout %q", code, out)
	}
}

func TestFmtStdin(t *testing.T) {
	code, out, _ := runFmtCLI(t, messyHarn, "-")
	if code != exitOK || out != formattedHarn {
		t.Errorf("harn: exit %d, %q", code, out)
	}
	code, out, _ = runFmtCLI(t, messyLeia, "--lang", "leia", "-")
	if code != exitOK || out != formattedLeia {
		t.Errorf("leia: exit %d, %q", code, out)
	}
	code, out, _ = runFmtCLI(t, messyLeia, "--lang", "leia", "--check", "-")
	if code != exitFail || out != "<stdin>\n" {
		t.Errorf("--check stdin: exit %d, %q", code, out)
	}
	if code, _, errs := runFmtCLI(t, "", "--lang", "rust", "-"); code != exitUsage || !strings.Contains(errs, "unknown --lang") {
		t.Errorf("unknown language: exit %d, %q", code, errs)
	}
}

// A file with syntax errors is never rewritten: exit 1, the diagnostics
// on stderr, the file untouched; the other files are still formatted.
func TestFmtNeverRewritesSyntaxErrors(t *testing.T) {
	broken := "fn f( {\n  return 1\n"
	dir := fmtFixture(t, map[string]string{"bad.harn": broken, "good.harn": messyHarn, "bad.leia": "x := \n"})
	code, out, errs := runFmtCLI(t, "", "--write", dir)
	if code != exitFail {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.HasSuffix(out, "good.harn\n1 file reformatted, 0 files left unchanged, 2 not formatted (see the errors)\n") || !strings.Contains(errs, "HARN-PAR") || !strings.Contains(errs, "bad.harn") || !strings.Contains(errs, "LEIA1001") {
		t.Errorf("stdout %q, stderr:\n%s", out, errs)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "bad.harn")); string(got) != broken {
		t.Error("a file with syntax errors was rewritten")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "good.harn")); string(got) != formattedHarn {
		t.Error("the valid file was not formatted")
	}
}

func TestFmtUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--check", "--write", "x.harn"},
		{"--write", "-"},
		{"testdata/no-such.harn"},
	} {
		if code, _, errs := runFmtCLI(t, "", args...); code != exitUsage || strings.Count(errs, "\n") != 1 {
			t.Errorf("fmt %v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestFmtLineWidthFromProject: harn.toml's `[fmt] line_width` is the
// width fmt breaks Harn lines at, for the files under it; a harn.toml
// that cannot be read leaves the files unformatted with its HARN-CFG-001.
func TestFmtLineWidthFromProject(t *testing.T) {
	long := "pipeline default(task) {\n  log(to_string(1234567890) + to_string(987654321) + to_string(11) + \"end\")\n}\n"
	narrow, err := format.Source("x.harn", []byte(long), format.Options{LineWidth: 40})
	if err != nil || string(narrow) == long {
		t.Fatalf("the width changes nothing (%v): the test tests nothing", err)
	}
	dir := fmtFixture(t, map[string]string{
		"p/harn.toml": "[fmt]\nline-width = 40\n", "p/a.harn": long,
		"q/a.harn":    long,
		"r/harn.toml": "[fmt]\nline_wdth = 40\n", "r/a.harn": long,
	})
	if code, out, errs := runFmtCLI(t, "", filepath.Join(dir, "p", "a.harn")); code != exitOK || out != string(narrow) {
		t.Errorf("line_width 40: exit %d, %s\nwant\n%s%s", code, out, narrow, errs)
	}
	if code, out, errs := runFmtCLI(t, "", filepath.Join(dir, "q", "a.harn")); code != exitOK || out != long {
		t.Errorf("no project: exit %d, %s%s", code, out, errs)
	}
	code, out, errs := runFmtCLI(t, "", "--check", filepath.Join(dir, "r"))
	if code != exitFail || out != "" || !strings.Contains(errs, "HARN-CFG-001") || !strings.Contains(errs, "fmt.line_wdth") {
		t.Errorf("invalid harn.toml: exit %d, stdout %q, stderr %s", code, out, errs)
	}
}
