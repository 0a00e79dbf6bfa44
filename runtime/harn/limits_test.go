package harn

import (
	"strings"
	"testing"
	"time"
)

// Every recursion is bounded: programs that nest or recurse deeply end
// with an error, never a Go stack overflow or a hang.

func TestDeepRecursionIsAnError(t *testing.T) {
	src := `fn down(n) {
  return 1 + down(n + 1)
}
let r = try { down(0) }
println(unwrap_err(r))
down(0)
`
	out, err := runSource(t, src, runOpts{maxDepth: 1 << 30})
	if !strings.Contains(out, "Stack overflow") {
		t.Errorf("caught error %q, want a stack overflow", out)
	}
	if err == nil || !strings.Contains(err.Error(), "Stack overflow") {
		t.Fatalf("uncaught: %v", err)
	}
}

func TestTailCallsDoNotGrowTheStack(t *testing.T) {
	src := `fn loop(n, acc) {
  if n == 0 {
    return acc
  }
  return loop(n - 1, acc + 1)
}
println(loop(1000000, 0))
`
	out, err := runSource(t, src, runOpts{})
	if err != nil || strings.TrimSpace(out) != "1000000" {
		t.Fatalf("got %q, %v", out, err)
	}
}

func TestDeeplyNestedSourceIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, open, close string
		n                 int
	}{
		{"parens", "(", ")", 100000},
		{"lists", "[", "]", 10000},
		{"unary", "-", "", 10000},
		{"blocks", "if true { ", " }", 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.n
			src := "let x = " + strings.Repeat(tc.open, n) + "1" + strings.Repeat(tc.close, n) + "\nprintln(x)\n"
			_, err := runSource(t, src, runOpts{timeout: 60 * time.Second})
			if err == nil {
				t.Fatal("a program nested 100,000 levels deep ran; want a nesting error")
			}
		})
	}
}

func TestDeeplyNestedValuesPrint(t *testing.T) {
	src := `var x = []
for i in 0 to 100000 {
  x = [x]
}
let s = to_string(x)
println(len(s) > 0)
println(x == x)
`
	out, err := runSource(t, src, runOpts{})
	if err != nil || out != "true\nfalse\n" && out != "true\ntrue\n" {
		t.Fatalf("got %q, %v", out, err)
	}
}

func TestStepBudget(t *testing.T) {
	_, err := runSource(t, "while true {\n}\n", runOpts{maxSteps: 100000})
	if err == nil || !strings.Contains(err.Error(), "step budget") {
		t.Fatalf("got %v, want a step budget error", err)
	}
	// The budget cannot be caught by the program.
	_, err = runSource(t, "try {\n  while true {\n  }\n} catch (e) {\n  println(\"swallowed\")\n}\n", runOpts{maxSteps: 100000})
	if err == nil || !strings.Contains(err.Error(), "step budget") {
		t.Fatalf("got %v, want the budget error to escape try/catch", err)
	}
}

func TestCancellationStopsAnInfiniteLoop(t *testing.T) {
	start := time.Now()
	_, err := runSource(t, "var i = 0\nwhile true {\n  i += 1\n}\n", runOpts{timeout: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("an infinite loop finished")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s to stop", d)
	}
	start = time.Now()
	_, err = runSource(t, "sleep(60s)\n", runOpts{timeout: 200 * time.Millisecond})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("sleep was not cancelled: %v after %s", err, time.Since(start))
	}
}

func TestDeadlineBlock(t *testing.T) {
	src := `let r = try {
  deadline 50ms {
    while true {
    }
  }
}
println(unwrap_err(r))
`
	out, err := runSource(t, src, runOpts{})
	if err != nil || strings.TrimSpace(out) != "Deadline exceeded" {
		t.Fatalf("got %q, %v", out, err)
	}
}
