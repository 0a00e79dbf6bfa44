package harn

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
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
	// A depth limit above execution.HardDepth is held to it: twice 200,000
	// nested calls, on a shared machine, need more than the usual 20 s.
	out, err := runSource(t, src, runOpts{maxDepth: 1 << 30, timeout: 3 * time.Minute})
	if !strings.Contains(out, "Stack overflow") {
		t.Errorf("caught error %q, want a stack overflow", out)
	}
	if want := "more than 200,000;"; !strings.Contains(out, want) {
		t.Errorf("caught error %q, want the hard depth limit (%s)", out, want)
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

// The run's stops pass every catch: try/catch, try as a Result, retry,
// parallel settle; the run ends with the stop.
func TestStopsAreNotCaught(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"try/catch in a loop", "while true {\n  try {\n    while true {\n    }\n  } catch (e) {\n    println(\"caught\")\n  }\n}\n"},
		{"try as a Result", "while true {\n  let r = try {\n    while true {\n    }\n  }\n}\n"},
		{"retry", "retry 1000000 {\n  while true {\n  }\n}\n"},
		{"parallel settle", "while true {\n  let r = parallel settle [1, 2] { x -> while true {\n  } }\n}\n"},
		{"finally that loops", "try {\n  while true {\n  }\n} finally {\n  while true {\n  }\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			out, err := runSource(t, tc.src, runOpts{maxSteps: 200_000, timeout: 10 * time.Second})
			var le *execution.LimitError
			if !errors.As(err, &le) || le.Resource != execution.Steps {
				t.Fatalf("got %v, want the step budget's stop", err)
			}
			if strings.Contains(out, "caught") {
				t.Errorf("the program caught the stop: %q", out)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestTaskBudget(t *testing.T) {
	for _, src := range []string{
		"while true {\n  spawn {\n    while true {\n    }\n  }\n}\n",
		"let r = parallel 100000000 { i -> i }\n",
		"let r = parallel each range(0, 100000) { i -> i }\n",
	} {
		start := time.Now()
		_, err := runSource(t, src, runOpts{limits: &execution.Limits{Tasks: 1000, Time: 20 * time.Second}})
		var le *execution.LimitError
		if !errors.As(err, &le) || le.Resource != execution.Tasks || !strings.HasSuffix(err.Error(), "raise it with --max-tasks") {
			t.Errorf("%q: got %v, want the task budget's stop", src, err)
		}
		// The run ends at once: thousands of tasks waiting for their turn
		// are abandoned, not run one by one.
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q: took %v", src, d)
		}
	}
}

func TestDeadlockSaysWhereEachTaskWaits(t *testing.T) {
	src := `let ch = channel("jobs", 1)
let idle = channel("idle", 1)
let t = spawn {
  receive(idle)
}
send(ch, 1)
send(ch, 2)
`
	_, err := runSource(t, src, runOpts{})
	var de *execution.DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a deadlock", err)
	}
	want := []string{"main program: send on channel jobs at main.harn:7:1", "task task_root:spawn:1: receive on channel idle at main.harn:4:3 in spawn"}
	got := regexp.MustCompile(`at \S*/main\.harn`).ReplaceAllString(strings.Join(de.Waits, "\n"), "at main.harn")
	if got != strings.Join(want, "\n") {
		t.Errorf("waits:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, ok := range []string{
		// a sleeping sender, a select with a timeout, a deadline block
		"let ch = channel(\"c\", 1)\nspawn {\n  sleep(50ms)\n  send(ch, 1)\n}\nprintln(receive(ch))\n",
		"let ch = channel(\"c\", 1)\nselect {\n  v from ch {\n    println(v)\n  }\n  timeout 50ms {\n    println(\"timeout\")\n  }\n}\n",
		"let ch = channel(\"c\", 1)\nlet r = try {\n  deadline 50ms {\n    receive(ch)\n  }\n}\nprintln(is_err(r))\n",
	} {
		if out, err := runSource(t, ok, runOpts{}); err != nil {
			t.Errorf("%q: %v (output %q): not a deadlock", ok, err, out)
		}
	}
}

// A run's end does not wait for its tasks: they are abandoned.
func TestRunEndDoesNotWaitForTasks(t *testing.T) {
	start := time.Now()
	_, err := runSource(t, "for i in 0 to 2000 {\n  spawn {\n    while true {\n    }\n  }\n}\nwhile true {\n}\n", runOpts{timeout: 300 * time.Millisecond})
	var le *execution.LimitError
	if !errors.As(err, &le) || le.Resource != execution.Time {
		t.Fatalf("got %v, want the time budget's stop", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a 300ms run with 2,000 busy tasks took %v to end", d)
	}
}
