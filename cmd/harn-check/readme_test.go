package main

import (
	"os"
	"strings"
	"testing"
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
