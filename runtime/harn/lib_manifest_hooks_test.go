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

func TestHookPatternMatches(t *testing.T) {
	payload, err := ParseJSON(`{"event": "PreToolUse", "tool": {"name": "write_file", "args": {"path": "/etc/x", "n": 3, "force": true}}}`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		pattern string
		want    bool
	}{
		{"", true}, {"*", true},
		{`tool.name =~ "write|edit"`, true}, {`tool.name =~ "^read"`, false}, {`tool.name =~ "("`, false},
		{`tool.name == "write_file"`, true}, {`tool.name == 'write_file'`, true}, {`tool.args.n == 3`, true},
		{`tool.name != "write_file"`, false}, {`tool.missing != "x"`, true},
		{"tool.args.force", true}, {"tool.args.absent", false},
		{"write_*", true}, {"read_*", false},
	}
	for _, tc := range tests {
		if got := hookPatternMatches(tc.pattern, payload); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.pattern, got, tc.want)
		}
	}
}

// A harn.toml whose hooks cannot be installed stops the run before it
// starts, saying which hook and why.
func TestManifestHookInstallErrors(t *testing.T) {
	tests := []struct {
		name, toml, lib, want string
	}{
		{"not exported", "[package]\nname = \"p\"\n[[hooks]]\nevent = \"PreToolUse\"\nhandler = \"p::missing\"\n",
			"pub fn other(e) { return nil }\n", "hook handler 'missing' is not exported by module 'p'"},
		{"no lib.harn", "[package]\nname = \"p\"\n[[hooks]]\nevent = \"PostToolUse\"\nhandler = \"p::f\"\n", "", "module 'p'"},
		{"unknown module", "[[hooks]]\nevent = \"PreToolUse\"\nhandler = \"nowhere::f\"\n", "", "nowhere"},
		{"bad event", "[[hooks]]\nevent = \"Sometimes\"\nhandler = \"p::f\"\n", "", `unknown event "Sometimes"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, text string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("harn.toml", tc.toml)
			if tc.lib != "" {
				write("lib.harn", tc.lib)
			}
			src := []byte("pipeline default() { println(\"ran\") }\n")
			var out bytes.Buffer
			err := testLibrary(t).RunProgram(context.Background(), runner.Program{Path: filepath.Join(dir, "main.harn"), Src: src}, runner.Env{Stdout: &out, Stderr: &out})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(out.String(), "ran") {
				t.Error("the program ran")
			}
		})
	}
}
