package harn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
)

// FuzzRun runs arbitrary source under the CLI's default limits (memory,
// tasks), with the step budget and wall time lowered so that each input
// takes at most about a second: whatever the input, the interpreter
// returns (a value or an error) within its time bound, never panics, and
// a run that stops at a limit says which. Seeds are the testdata/run
// programs and hostile ones (issue 25). .ci/run runs it for a few seconds.
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
	f.Add("var l = [1]\nfor i in 0 to 100 {\n  l = [l, l]\n}\nprintln(to_string(l) == json_stringify(l))")
	f.Add("while true {\n  try {\n    while true {}\n  } catch (e) {\n    println(e)\n  }\n}")
	f.Add("let ch = channel(\"c\", 0)\nspawn { receive(ch) }\nreceive(ch)")
	limits := execution.Defaults()
	limits.Steps = 500_000
	limits.Time = time.Second
	// The depth the seeds were written for (the interpreter's default
	// before --max-depth): at the CLI's 100,000 a recursing input spends
	// its second growing a 100 MB stack per run, and the engine's workers
	// stall past the fuzz time. TestMaxDepthFlag covers deep recursion.
	limits.Depth = 10_000
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		tmp := t.TempDir()
		start := time.Now()
		_, err := runSource(t, src, runOpts{limits: &limits, tempDir: tmp})
		// The deadlock tracker may take its window (a second) past the
		// deadline's check; the rest is a loaded machine's slack.
		if d := time.Since(start); d > limits.Time+8*time.Second {
			t.Fatalf("a run bounded to %s took %s: a limit was not honoured\nsource:\n%s", limits.Time, d, src)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("interpreter bug: %v\nsource:\n%s", err, src)
		}
		var le *execution.LimitError
		if errors.As(err, &le) && !strings.Contains(err.Error(), "raise it with "+execution.LimitOf(le.Resource).Flag) {
			t.Fatalf("a limit's error does not name its flag: %v", err)
		}
	})
}
