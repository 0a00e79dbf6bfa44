package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/internal/version"
)

// TestMain lets the tests run this binary's main as a child process.
func TestMain(m *testing.M) {
	if os.Getenv("LEIA_LSP_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{[]string{"--version"}, 0, "leia-lsp " + version.Version + "\n", ""},
		{[]string{"extra"}, 2, "", "unexpected argument \"extra\""},
		{[]string{"--nope"}, 2, "", "flag provided but not defined: -nope"},
		{[]string{"--log", "/nonexistent/dir/x.log"}, 2, "", "no such file or directory"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &out, &errb)
			if status != tc.status || out.String() != tc.stdout || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("status %d stdout %q stderr %q; want %d, %q, stderr containing %q",
					status, out.String(), errb.String(), tc.status, tc.stdout, tc.stderr)
			}
		})
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// readFrames parses stdout strictly as a sequence of LSP frames: anything
// else (a stray log line) fails the test.
func readFrames(t *testing.T, out []byte) []string {
	t.Helper()
	var bodies []string
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return bodies
		}
		n, ok := strings.CutPrefix(line, "Content-Length: ")
		if !ok {
			t.Fatalf("stdout holds something other than a frame: %q", line)
		}
		length, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil {
			t.Fatal(err)
		}
		if blank, _ := r.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("header not ended by a blank line: %q", blank)
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(body))
	}
}

// TestStdio runs the binary as an editor would: protocol on stdin/stdout,
// log on stderr or in the --log file, exit status from the handshake.
func TestStdio(t *testing.T) {
	initialize := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	shutdown := frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	exit := frame(`{"jsonrpc":"2.0","method":"exit"}`)
	logPath := filepath.Join(t.TempDir(), "server.log")
	for _, tc := range []struct {
		name      string
		args      []string
		input     string
		status    int
		responses int
	}{
		{"orderly shutdown", nil, initialize + shutdown + exit, 0, 2},
		{"exit without shutdown", nil, initialize + exit, 1, 1},
		{"input ends", nil, initialize, 1, 1},
		{"malformed frame then shutdown", nil, initialize + frame(`{oops`) + shutdown + exit, 0, 3},
		{"log to a file, even the transport's complaints", []string{"--log", logPath},
			initialize + frame(`{"jsonrpc":"2.0","method":"leia/unknown","params":{}}`) + frame(`[1]`) + shutdown + exit, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"--explain-dir", t.TempDir()}, tc.args...)...)
			cmd.Env = append(os.Environ(), "LEIA_LSP_RUN_MAIN=1")
			cmd.Stdin = strings.NewReader(tc.input)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			status := 0
			if ee, ok := err.(*exec.ExitError); ok {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.status {
				t.Errorf("exit status %d, want %d; stderr:\n%s", status, tc.status, stderr.String())
			}
			if got := readFrames(t, stdout.Bytes()); len(got) != tc.responses {
				t.Errorf("%d responses, want %d: %q", len(got), tc.responses, got)
			}
			logText := stderr.String()
			if tc.args != nil {
				if stderr.Len() != 0 {
					t.Errorf("with --log, stderr must stay empty: %q", stderr.String())
				}
				data, _ := os.ReadFile(logPath)
				logText = string(data)
			}
			if !strings.Contains(logText, "leia-lsp "+version.Version+" serving") {
				t.Errorf("log lacks the start line:\n%s", logText)
			}
		})
	}
}
