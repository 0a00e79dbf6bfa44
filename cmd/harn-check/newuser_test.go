package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29 §3: what a new user tripped on. Each test holds one item.

// One rule for a folder with nothing to work on, for every command that
// walks folders: exit 2 naming the folder and --allow-empty, which each
// of them accepts.
func TestEmptyFolderRuleForEveryCommand(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644)
	for _, cmd := range []string{"check", "fmt", "manifest", "test", "evaluate", "validate"} {
		t.Run(cmd, func(t *testing.T) {
			code, _, stderr := runCLI(t, cmd, empty)
			if code != exitUsage || !strings.HasPrefix(stderr, "harn-check: "+cmd+": "+empty+": no ") || !strings.Contains(stderr, "--allow-empty") {
				t.Errorf("%s EMPTY: exit %d, stderr %q", cmd, code, stderr)
			}
			code, _, stderr = runCLI(t, cmd, "--allow-empty", empty)
			if code != exitOK {
				t.Errorf("%s --allow-empty EMPTY: exit %d, stderr %q", cmd, code, stderr)
			}
		})
	}
}

// manifest on a clean Leia file says why there is nothing to list,
// rather than what it says of a Harn file that failed.
func TestManifestOfLeiaFile(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "ok.leia", "x := 1\nprint(x)\n")
	code, out, stderr := runCLI(t, "manifest", p)
	if code != exitOK || out != p+": no evaluation sites (Leia files declare none; the manifest lists Harn's)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if strings.Contains(out, "not checked completely") {
		t.Errorf("a clean Leia file reported as not checked: %q", out)
	}
}

// evaluate: a block whose subcases failed is a failed case (no PASSED,
// no 100% pass rate), and without a mode flag a provider that cannot be
// used is named, with the flags that run without one.
func TestEvaluateFailedSubcasesAndMissingProvider(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	code, out, stderr := runCLI(t, "evaluate", "examples/leia/evaluate_answers.leia")
	for _, want := range []string{
		"FAILED examples/leia/evaluate_answers.leia:19:1",
		"provider_unconfigured: no usable model provider, so every model call failed: model fast: protocol openai_compatible needs base_url",
		"--mock answers the calls, --replay FIXTURE replays a recording",
		"subcase_failed: 3 of 3 subcases failed",
		"cases: 0 passed, 1 failed of 1 evaluate block in 1 file; pass rate 0.0%",
		"status: failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q (exit %d, stderr %q):\n%s", want, code, stderr, out)
		}
	}
	if strings.Contains(out, "PASSED") || strings.Contains(out, "100.0%") {
		t.Errorf("failed subcases shown as a pass:\n%s", out)
	}
	if code, _, _ := runCLI(t, "evaluate", "--gate", "examples/leia/evaluate_answers.leia"); code != exitFail {
		t.Errorf("--gate: exit %d, want 1", code)
	}
	// With the mock the subcases pass and the case with them.
	code, out, _ = runCLI(t, "evaluate", "--mock", "examples/leia/evaluate_answers.leia")
	if code != exitOK || !strings.Contains(out, "PASSED examples/leia/evaluate_answers.leia:19:1") || strings.Contains(out, "provider_unconfigured") {
		t.Errorf("--mock: exit %d\n%s", code, out)
	}
}
