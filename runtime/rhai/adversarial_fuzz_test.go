package rhai

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// FuzzAdversarial runs scripts against an answer of any size under the
// validator's limits, as an output validator runs: whatever the script,
// the call must return (a value or a named error), within a bounded time,
// allocating a bounded amount of memory. Seeds are the memory bombs,
// loops and growth tricks of issue #19 (testdata/fuzz/FuzzAdversarial
// holds more).
func FuzzAdversarial(f *testing.F) {
	for _, s := range []string{
		"fn validate(c) { c.to_chars().len() }",
		"fn validate(c) { c.split(\"\").len() }",
		"fn validate(c) { c }",
		"fn validate(c) { let s = c; loop { s += s; } }",
		"fn validate(c) { let a = []; loop { a.push(c); a += a; } }",
		"fn validate(c) { let m = #{}; for i in 0..100000 { m[`k${i}`] = c; } m }",
		"fn validate(c) { let s = c; s.replace(\"a\", c); s }",
		"fn validate(c) { `${c}${c}${c}${c}` }",
		"fn validate(c) { let a = []; a.pad(1000000, c); a }",
		"fn validate(c) { parse_json(\"[\" + \"[\".pad(100000, \"[\") + \"]\") }",
		"fn f(n) { f(n + 1) } fn validate(c) { f(0) }",
		"fn validate(c) { let x = c.split(\" \"); x.sort(); x.reverse(); x.join(c) }",
	} {
		f.Add(s, uint16(1000), byte('a'))
	}
	f.Fuzz(func(t *testing.T, src string, size uint16, fill byte) {
		prog, err := Compile(src, 0)
		if err != nil {
			return
		}
		// Answers up to 4 MB: past the validator's 1 MB string limit, so
		// the limit on the content itself is exercised too.
		content := strings.Repeat(string(rune('a'+fill%26))+" ", int(size)*32)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			if len(prog.fns["validate"]) > 0 {
				prog.Call("validate", []Value{content}, DefaultLimits())
			} else {
				prog.Run(DefaultLimits())
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("the script did not end within 20 s:\n%s", src)
		}
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 512<<20 {
			t.Fatalf("the script allocated %d MB (in %v):\n%s", grown>>20, time.Since(start), src)
		}
	})
}
