package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxDepthFlag: --max-depth sets how deep both languages' calls may
// nest. A recursion 30,000 deep runs under a limit just above it and is a
// stack overflow naming the flag under one just below it.
func TestMaxDepthFlag(t *testing.T) {
	programs := map[string]string{
		"down.harn": "fn down(n) {\n  if n == 0 {\n    return 0\n  }\n  return down(n - 1) + 1\n}\nprintln(down(30000))\n",
		"down.leia": "func down(n) { if n == 0 { return 0 }; return down(n - 1) + 1 }\nprint(down(30000))\n",
	}
	for name, src := range programs {
		dir := t.TempDir()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			depth string
			exit  int
			want  string
		}{
			{"30010", 0, "30000"},
			{"29990", 1, "29,990"},
		} {
			code, stdout, stderr := runCLI(t, "run", "--no-check", "--max-depth", c.depth, path)
			if code != c.exit {
				t.Errorf("%s --max-depth %s: exit %d, want %d\n%s%s", name, c.depth, code, c.exit, stdout, stderr)
				continue
			}
			out := stdout
			if c.exit != 0 {
				out = stderr
				if !strings.Contains(out, "raise it with --max-depth") {
					t.Errorf("%s --max-depth %s: the overflow does not name the flag:\n%s", name, c.depth, firstLine(out))
				}
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("%s --max-depth %s: output lacks %q:\n%s", name, c.depth, c.want, firstLine(out))
			}
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
