package main

import (
	"os"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/execution"
)

// TestReadmeShowsExamplesOutput keeps the README honest: the output it
// shows for the first of "the two commands" (go run ./cmd/harn-check
// examples/, run from the repository root) is what the checker prints
// now, and the command exits with status 1 because examples/broken holds
// files with errors on purpose.
func TestReadmeShowsExamplesOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "were found (that is the status a CI job fails on; see \"Exit status\"):\n\n```\n"
	i := strings.Index(string(readme), marker)
	if i < 0 {
		t.Fatal("README lost the block showing the examples' output")
	}
	block := string(readme[i+len(marker):])
	block = block[:strings.Index(block, "```")]
	// go run adds its own last line about the exit status.
	want := strings.TrimSuffix(block, "exit status 1\n")
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "--color", "never", "--no-cache", "examples/")
	if code != 1 {
		t.Errorf("exit status %d, want 1 (examples/broken has errors on purpose); stderr: %s", code, stderr)
	}
	if stdout != want {
		t.Errorf("README block differs from the output; got:\n%s\nREADME shows:\n%s", stdout, want)
	}
}

// TestReadmeRunExample: the `harn-check run` example the README shows
// (examples/release_notes) prints what the README says it prints, and the
// example passes `harn-check test` with its .expected file.
func TestReadmeRunExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "$ harn-check run --llm-mock-replay examples/release_notes/release_notes.llm-mock.jsonl \\\n    examples/release_notes/release_notes.harn 2.4.0\n"
	i := strings.Index(string(readme), marker)
	if i < 0 {
		t.Fatal("README lost the harn-check run example")
	}
	block := string(readme[i+len(marker):])
	block = block[:strings.Index(block, "```")]
	t.Chdir("../..")
	code, stdout, stderr := runCLI(t, "run", "--llm-mock-replay", "examples/release_notes/release_notes.llm-mock.jsonl",
		"examples/release_notes/release_notes.harn", "2.4.0")
	if code != 0 {
		t.Fatalf("exit status %d; stderr: %s", code, stderr)
	}
	if stdout != block {
		t.Errorf("README block differs from the output; got:\n%s\nREADME shows:\n%s", stdout, block)
	}
	if code, stdout, _ := runCLI(t, "test", "examples/release_notes"); code != 0 {
		t.Errorf("harn-check test examples/release_notes: exit %d\n%s", code, stdout)
	}
}

// TestReadmeListsEveryRunLimit: the README's table of run-time limits has
// one row per limit of the execution core, with its flag and default, and
// every limit's flag exists on run, test and evaluate.
func TestReadmeListsEveryRunLimit(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "| limit | default | flag |\n|---|---|---|\n"
	i := strings.Index(string(readme), marker)
	if i < 0 {
		t.Fatal("README lost the table of run-time limits")
	}
	rows := strings.Split(strings.Split(string(readme[i+len(marker):]), "\n\n")[0], "\n")
	for _, l := range execution.Table {
		def := execution.FormatValue(l.Resource, l.Default)
		found := false
		for _, row := range rows {
			if strings.HasPrefix(row, "| "+l.What+" | "+def) && strings.HasSuffix(row, "| `"+l.Flag+" "+flagArg(l.Resource)+"` |") {
				found = true
			}
		}
		if !found {
			t.Errorf("no README row \"| %s | %s ... | `%s %s` |\" in:\n%s", l.What, def, l.Flag, flagArg(l.Resource), strings.Join(rows, "\n"))
		}
		for _, cmd := range []string{"run", "test", "evaluate"} {
			if _, stdout, _ := runCLI(t, cmd, "-h"); !strings.Contains(stdout, l.Flag[1:]+" ") {
				t.Errorf("%s -h does not list %s:\n%s", cmd, l.Flag, stdout)
			}
		}
	}
}

func flagArg(r execution.Resource) string {
	switch r {
	case execution.Time:
		return "D"
	case execution.Memory:
		return "SIZE"
	}
	return "N"
}
