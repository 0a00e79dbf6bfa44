package harn

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
)

// A value that shares itself a hundred levels deep has 2^100 leaves:
// walking it (display, JSON, equality) is charged per node, so it stops at
// the run's budget instead of running forever (issue 25).
func TestSharedValueWalksStopAtTheBudget(t *testing.T) {
	const build = "var l = [1]\nvar m = [1]\nfor i in 0 to 100 {\n  l = [l, l]\n  m = [m, m]\n}\n"
	for _, tc := range []struct{ name, expr string }{
		{"to_string", "to_string(l)"},
		{"interpolation", `"${l}"`},
		{"println", "println(l)"},
		{"json_stringify", "json_stringify(l)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := build + "let r = try { " + tc.expr + " }\nprintln(\"caught\")\n"
			_, err := runSource(t, src, runOpts{maxSteps: 2_000_000})
			if err == nil || !strings.Contains(err.Error(), "step budget exceeded") {
				t.Fatalf("got %v, want the step budget error (uncaught)", err)
			}
		})
	}
	// Equality of two such values is decided on the distinct pairs.
	out, err := runSource(t, build+"println(l == m)\nl = [l, 2]\nm = [m, 3]\nprintln(l == m)\n", runOpts{maxSteps: 2_000_000})
	if err != nil || out != "true\nfalse\n" {
		t.Fatalf("got %q, %v", out, err)
	}
	// Under a memory budget, the text written is charged.
	lim := execution.Limits{Memory: 32 << 20}
	_, err = runSource(t, build+"println(to_string(l).len())\n", runOpts{limits: &lim})
	if err == nil || !strings.Contains(err.Error(), "memory budget exceeded") {
		t.Fatalf("got %v, want the memory budget error", err)
	}
}

// json_stringify of a value nested past the depth it writes is an error,
// not a null in its place.
func TestJSONStringifyTooDeepIsAnError(t *testing.T) {
	for _, wrap := range []string{"[x]", "{a: x}"} {
		src := "var x = 1\nfor i in 0 to 3000 {\n  x = " + wrap + "\n}\nlet r = try { json_stringify(x) }\nprintln(unwrap_err(r))\nprintln(json_stringify([[1]]))\n"
		out, err := runSource(t, src, runOpts{})
		if err != nil || out != "json_stringify: value nested deeper than 2000 levels\n[[1]]\n" {
			t.Fatalf("%s: got %q, %v", wrap, out, err)
		}
	}
}

// Host code's Display of such a value gives up with an elision.
func TestDetachedDisplayIsBounded(t *testing.T) {
	v := NewListValue([]Value{Int(1)})
	for range 100 {
		v = NewListValue([]Value{v, v})
	}
	if s := Display(v); !strings.HasSuffix(s, "...]]") && !strings.Contains(s, "...") {
		t.Fatalf("Display did not elide (%d bytes)", len(s))
	}
	if !Equal(v, v) {
		t.Fatal("a shared value is not equal to itself")
	}
}

// Values built in one operation (concatenation, repetition, a builtin's
// or a method's result, decompression) are charged by their size: a loop
// that builds an 8 MB string per iteration meets the memory budget within
// a few iterations, whatever catches errors around it.
func TestBuiltValuesAreCharged(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"plus", "let s = \"x\".repeat(8000000)\nvar l = []\nwhile true {\n  l = l.push(s + \"y\")\n}\n"},
		{"plus assign", "let s = \"x\".repeat(8000000)\nvar l = []\nwhile true {\n  var t = s\n  t += \"y\"\n  l = l.push(t)\n}\n"},
		{"repeat", "var l = []\nwhile true {\n  l = l.push(\"ab\".repeat(4000000))\n}\n"},
		{"join builtin", "let x = \"x\".repeat(1000000)\nlet p = [x, x, x, x, x, x, x, x]\nvar l = []\nwhile true {\n  l = l.push(join(p, \"\"))\n}\n"},
		{"caught", "let s = \"x\".repeat(8000000)\nvar l = []\nwhile true {\n  try {\n    l = l.push(s + \"y\")\n  } catch (e) {\n    println(e)\n  }\n}\n"},
		{"gzip_decode", "let z = gzip_encode(\"a\".repeat(8000000))\nvar l = []\nwhile true {\n  l = l.push(gzip_decode(z))\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := execution.Limits{Memory: 48 << 20, Time: 20 * time.Second}
			_, err := runSource(t, tc.src, runOpts{limits: &lim})
			var le *execution.LimitError
			if !errors.As(err, &le) || le.Resource != execution.Memory {
				t.Fatalf("got %v, want the memory budget's stop", err)
			}
		})
	}
}

// A string built in one operation from small inputs (join, replace,
// regex_replace) is refused before it is built when it would exceed the
// string cap, as + and repeat are.
func TestOneOperationStringsAreCapped(t *testing.T) {
	big := "let x = \"x\".repeat(1000000)\n"
	for _, tc := range []struct{ name, src, want string }{
		{"join method", big + "var l = []\nfor i in 0 to 100 {\n  l = l.push(x)\n}\nlet r = try { l.join(\"\") }\nprintln(unwrap_err(r))\n", "joined string would exceed"},
		{"replace", big + "let s = \"a\".repeat(100)\nlet r = try { s.replace(\"a\", x) }\nprintln(unwrap_err(r))\n", "string replacement would exceed"},
		{"regex_replace", big + "let s = \"a\".repeat(100)\nlet r = try { regex_replace(\"a\", x, s) }\nprintln(unwrap_err(r))\n", "regex_replace: string would exceed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if err != nil || !strings.Contains(out, tc.want) {
				t.Fatalf("got %q, %v; want %q", out, err, tc.want)
			}
		})
	}
}

// Builtins are charged the text they are given: a loop searching an 8 MB
// string meets the step budget within a few dozen calls.
func TestBuiltinInputIsCharged(t *testing.T) {
	for _, tc := range []struct{ name, loop string }{
		{"regex", "regex_match(\"b+\", s)"},
		{"method", "s.contains(\"b\")"},
		{"builtin", "contains(s, \"b\")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "let s = \"a\".repeat(8000000)\nwhile true {\n  " + tc.loop + "\n}\n"
			lim := execution.Limits{Steps: 1_000_000, Time: 20 * time.Second}
			_, err := runSource(t, src, runOpts{limits: &lim})
			var le *execution.LimitError
			if !errors.As(err, &le) || le.Resource != execution.Steps {
				t.Fatalf("got %v, want the step budget's stop", err)
			}
		})
	}
}
