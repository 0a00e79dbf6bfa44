package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarnLLMMockRecordRoundTrip: a Harn program run under
// --llm-mock-record writes its answers as an .llm-mock.jsonl tape, and
// --llm-mock TAPE then replays the same answers in the same order (the
// tape is a codec of the recorded turns); a tape that runs out is the
// upstream error, and the record flags refuse a fixture of the other
// format.
func TestHarnLLMMockRecordRoundTrip(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.harn")
	src := `fn main() {
  const a = llm_call("first question", nil, {provider: "mock", model: "m1"})
  const b = llm_call("x", nil, {provider: "mock", tools: [{name: "look"}]})
  println("${a.text}|${a.input_tokens}|${b.tool_calls[0].name}")
}
`
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tape := filepath.Join(dir, "p.llm-mock.jsonl")
	want := "Mock response to 2-word prompt: first question|14|look\n"
	code, out, errOut := runCLI(t, "run", "--no-check", "--llm-mock-record", tape, prog)
	if code != 0 || out != want {
		t.Fatalf("record: exit %d, output %q, %s", code, out, errOut)
	}
	data, err := os.ReadFile(tape)
	if err != nil || strings.Count(string(data), "\n") != 2 || !strings.Contains(string(data), `"text":"Mock response to 2-word prompt: first question"`) {
		t.Fatalf("tape %q, %v", data, err)
	}
	code, out, errOut = runCLI(t, "run", "--no-check", "--llm-mock", tape, prog)
	if code != 0 || out != want {
		t.Errorf("replay: exit %d, output %q, %s", code, out, errOut)
	}
	short := filepath.Join(dir, "short.llm-mock.jsonl")
	os.WriteFile(short, data[:strings.IndexByte(string(data), '\n')+1], 0o644)
	if code, _, errOut = runCLI(t, "run", "--no-check", "--llm-mock", short, prog); code != 1 || !strings.Contains(errOut, `No --llm-mock fixture matched prompt: "x`) {
		t.Errorf("short tape: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{
		{"run", "--llm-mock-record", filepath.Join(dir, "x.records.json"), prog},
		{"run", "--llm-record", filepath.Join(dir, "x.jsonl"), prog},
		{"run", "--llm-record", filepath.Join(dir, "x.records.json"), "--llm-mock-record", tape, prog},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errOut)
		}
	}
}
