package main

import (
	"encoding/json"
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

// parse takes files: a folder is named as one, not as a file kind.
func TestParseRefusesAFolderByName(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "parse", dir)
	if code != exitUsage || stderr != "harn-check: parse: "+dir+": is a folder; parse takes files (harn-check check walks folders)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
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

// The bundled examples are fmt-clean (.ci/run keeps them so), and the
// formatter keeps its own width: no line over 100 columns where a break
// is possible, and a broken method call keeps `recv.m(` together with
// its arguments indented under it.
func TestFmtKeepsTheWidthAndTheExamplesClean(t *testing.T) {
	t.Run("examples", func(t *testing.T) {
		t.Chdir(filepath.Join("..", ".."))
		if code, out, stderr := runCLI(t, "fmt", "--check", "examples"); code != exitOK {
			t.Errorf("fmt --check examples: exit %d\n%s%s", code, out, stderr)
		}
		ci, err := os.ReadFile(".ci/run")
		if err != nil || !strings.Contains(string(ci), "harn-check fmt --check examples") {
			t.Errorf(".ci/run does not keep the examples formatted (%v)", err)
		}
	})
	src := `fn route(harness: Harness, ticket: {text: string}) -> string {
  const policy: EvaluationPolicy = {backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.8}
  if true {
    if true {
      log(some_function_with_a_long_name(argument_number_one) + another_function_call(argument_number_two))
    }
  }
  return harness.llm.evaluate_predicate("support.route.v1", "Which team owns this ticket, given everything?", ticket, policy)
}
`
	dir := t.TempDir()
	p := writeFile(t, dir, "w.harn", src)
	code, out, stderr := runCLI(t, "fmt", p)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for i, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 100 {
			t.Errorf("line %d is %d columns:\n%s", i+1, len([]rune(l)), out)
		}
	}
	for _, want := range []string{
		"  const policy: EvaluationPolicy = {\n    backend: \"structured_llm\",\n",
		"      log(\n        some_function_with_a_long_name(argument_number_one)\n          + another_function_call(argument_number_two),\n      )\n",
		"  return harness.llm.evaluate_predicate(\n    \"support.route.v1\",\n",
		"    policy,\n  )\n}\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("formatted text lacks %q:\n%s", want, out)
		}
	}
	// The result is a fixed point.
	p2 := writeFile(t, dir, "w2.harn", out)
	if code, again, _ := runCLI(t, "fmt", p2); code != exitOK || again != out {
		t.Errorf("not idempotent:\n%s", again)
	}
}

// Every bundled Harn program runs (compaction.harn read a transcript.txt
// that was not there); examples/broken fails on purpose and release_notes
// runs with its tape in TestReadmeRunExample.
func TestBundledHarnExamplesRun(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	for _, p := range []string{
		"examples/harn/compaction.harn", "examples/harn/routing.harn", "examples/harn/support.harn",
		"examples/audit/entry.harn", "examples/triage/triage.harn",
	} {
		if code, out, stderr := runCLI(t, "run", p); code != exitOK {
			t.Errorf("run %s: exit %d\n%s%s", p, code, out, stderr)
		}
	}
	if _, out, _ := runCLI(t, "run", "examples/harn/compaction.harn"); !strings.HasPrefix(out, "dropping 0 of 13 messages\n") {
		t.Errorf("compaction.harn: %q", out)
	}
}

// Messages: one prefix style (harn-check: CMD: ...), "1 file", "an int";
// fmt --json writes its document on stdout; fmt --write says what it
// changed.
func TestMessagesOfANewUser(t *testing.T) {
	dir := t.TempDir()
	clean := writeFile(t, dir, "clean.harn", "fn main(harness: Harness) {\n  log(1)\n}\n")
	messy := writeFile(t, dir, "messy.harn", "fn main(harness: Harness) {\n    log( 1 )\n}\n")
	code, stdout, stderr := runCLI(t, "fmt", "--json", "--check", clean, messy)
	var doc struct {
		Data struct {
			Files []struct{ Path string }
		}
		Warnings []struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != exitFail || len(doc.Data.Files) != 2 ||
		len(doc.Warnings) != 1 || doc.Warnings[0].Code != "not_formatted" || doc.Warnings[0].Message != messy+": not formatted" || stderr != messy+"\n" {
		t.Errorf("fmt --json --check: exit %d, %v\nstdout %s\nstderr %q", code, err, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "fmt", "--json", messy); code != exitUsage || !strings.Contains(stdout, `"code": "usage"`) || !strings.HasPrefix(stderr, "harn-check: fmt: ") {
		t.Errorf("fmt --json without --check/--write: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "fmt", "--write", clean, messy)
	if code != exitOK || stdout != "reformatted "+messy+"\n1 file reformatted, 1 file left unchanged\n" || stderr != "" {
		t.Errorf("fmt --write: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// A pipe among a folder's files is skipped with the command's prefix.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	writeFile(t, sub, "ok.harn", "fn main(harness: Harness) {\n  log(1)\n}\n")
	mkfifo(t, filepath.Join(sub, "p.harn"))
	if _, _, stderr := runCLI(t, "fmt", "--check", sub); !strings.HasPrefix(stderr, "harn-check: fmt: "+filepath.Join(sub, "p.harn")+": skipped: ") {
		t.Errorf("skipped pipe: %q", stderr)
	}
	// "an int", "1 file".
	p := writeFile(t, dir, "prop.harn", "fn main(harness: Harness) {\n  let x = 1\n  log(x.foo)\n}\n")
	if _, stdout, _ := runCLI(t, "--color", "never", p); !strings.Contains(stdout, "help: an int has no properties") || !strings.Contains(stdout, "in 1 file checked") {
		t.Errorf("check: %s", stdout)
	}
	p = writeFile(t, dir, "call.harn", "fn main(harness: Harness) {\n  let x = 1\n  x(2)\n}\n")
	if _, _, stderr := runCLI(t, "run", "--no-check", p); !strings.Contains(stderr, "cannot call an int value") {
		t.Errorf("run: %s", stderr)
	}
}

// The README's editor setups: a Neovim block that works on Debian's 0.7
// (no vim.lsp.start or vim.fs, which 0.8 added; .ci/run runs it in
// headless Neovim through lsp/testdata/nvim/readme-test), one for 0.11+
// with vim.lsp.config/vim.lsp.enable, Helix (which Debian does not
// package) and Emacs eglot (.ci/run runs it in Debian's Emacs 28 through
// lsp/testdata/emacs/readme-test); and what the
// first `go test ./...` costs, with -short skipping the downloads.
func TestReadmeForANewUser(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "-- leia-lsp for Neovim 0.7+\n")
	if i < 0 {
		t.Fatal("README lost the Neovim 0.7 block readme-test runs")
	}
	block := readme[i : i+strings.Index(readme[i:], "```")]
	for _, newer := range []string{"vim.lsp.start(", "vim.fs.", "vim.filetype.add"} {
		if strings.Contains(block, newer) {
			t.Errorf("the Neovim 0.7 block uses %s, which 0.7 lacks or ignores", newer)
		}
	}
	for _, want := range []string{
		`vim.lsp.config("leia-lsp"`, `vim.lsp.enable("leia-lsp")`, "[language-server.leia-lsp]", "eglot-server-programs", ";; leia-lsp for Emacs\n",
		"downloads about 83 MB", "about 180 MB", "about 2 minutes", "go test -short ./...",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	ci, _ := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	for _, script := range []string{"lsp/testdata/nvim/readme-test", "lsp/testdata/emacs/readme-test"} {
		if !strings.Contains(string(ci), script) {
			t.Errorf(".ci/run does not run %s (the README's editor block)", script)
		}
	}
}

// run --llm-mock takes upstream's tape: `run --llm-mock tape.jsonl
// prog.harn` replays the tape (it ran the tape as the program); alone it
// is still the built-in mock.
func TestRunLLMMockTakesUpstreamsTape(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", "examples", "release_notes"))
	want, err := os.ReadFile("release_notes.expected")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--llm-mock", "release_notes.llm-mock.jsonl", "release_notes.harn"},
		{"run", "release_notes.harn", "--llm-mock=release_notes.llm-mock.jsonl"},
	} {
		if code, out, stderr := runCLI(t, args...); code != exitOK || out != string(want) {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "run", "--llm-mock", "a.jsonl", "--llm-mock-replay", "b.jsonl", "release_notes.harn"); code != exitUsage || !strings.Contains(stderr, "two tapes") {
		t.Errorf("two tapes: exit %d %q", code, stderr)
	}
	t.Chdir(filepath.Join("..", "leia"))
	if code, out, stderr := runCLI(t, "run", "--llm-mock", "turn.leia"); code != exitOK || out == "" {
		t.Errorf("--llm-mock alone: exit %d\n%s%s", code, out, stderr)
	}
}
