package harn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/runner"
)

// TestSuiteRootModules: a test program may import a module of the suite
// it was found in (upstream's conformance tests import ../_common.harn),
// as harn-check test runs it; the same import from a plain run, a read of
// a non-module file there, and an import outside the suite stay denied.
func TestSuiteRootModules(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite")
	write := func(rel, src string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("suite/_common.harn", "pub fn greeting() { return \"hello from the suite\" }\n")
	write("suite/notes.txt", "a file that is not a module\n")
	write("outside.harn", "pub fn greeting() { return \"outside\" }\n")
	importer := write("suite/a/imports_common.harn", "import { greeting } from \"../_common\"\npipeline test(task) { println(greeting()) }\n")
	write("suite/a/imports_common.expected", "hello from the suite\n")
	write("suite/a/reads_notes.harn", "pipeline test(task) { println(read_file(\"../notes.txt\")) }\n")
	write("suite/a/reads_notes.error", "outside the program's folder")
	write("suite/a/imports_outside.harn", "import { greeting } from \"../../outside\"\npipeline test(task) { println(greeting()) }\n")
	write("suite/a/imports_outside.error", "--allow-fs")

	cases, err := runner.Languages{testLanguage(t)}.Discover([]string{suite}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 {
		t.Fatalf("found %d cases, want 3", len(cases))
	}
	for _, r := range runner.Suite(context.Background(), cases, runner.SuiteOptions{Jobs: 1}) {
		if !r.Passed {
			t.Errorf("%s: %s", r.Rel, r.Message)
		}
	}

	// A plain run has no suite: the program's folder is its boundary.
	src, _ := os.ReadFile(importer)
	var out bytes.Buffer
	err = testLibrary(t).RunProgram(context.Background(), runner.Program{Path: importer, Src: src}, runner.Env{Stdout: &out, Stderr: &out})
	if err == nil || !strings.Contains(err.Error(), "--allow-fs") {
		t.Errorf("plain run of %s: err %v, want a denial naming --allow-fs", importer, err)
	}
}
