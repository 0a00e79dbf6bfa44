package harn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzRun runs arbitrary source with a small step budget and a short
// deadline: whatever the input, the interpreter returns (a value or an
// error) and never panics. Seeds are the testdata/run programs.
//
//	go test ./runtime/harn -run '^$' -fuzz FuzzRun -fuzztime 60s
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/run/*.harn")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("let x = [1, {a: 2}]\nx[1].a = x\nprintln(x)")
	f.Add("fn f(n) { return f(n) + 1 }\nf(0)")
	f.Add("var s = \"\"\nwhile true { s = s + s + \"x\" }")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		tmp := t.TempDir()
		start := time.Now()
		_, err := runSource(t, src, runOpts{maxSteps: 200000, timeout: 300 * time.Millisecond, tempDir: tmp})
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("a run with a 300ms deadline took %s: cancellation was not honoured\nsource:\n%s", d, src)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("interpreter bug: %v\nsource:\n%s", err, src)
		}
	})
}
