package harn

import (
	"errors"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/execution"
)

// TestSort pins what sort and sort_by promise: the language's order,
// stability (upstream sorts with Rust's stable sort_by), comparators that
// answer with a bool or a number, and errors that stop the sort.
func TestSort(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"ints", `println([5, -1, 3, 3, 0, 9223372036854775807, -9223372036854775807 - 1].sort())`,
			"[-9223372036854775808, -1, 0, 3, 3, 5, 9223372036854775807]"},
		{"strings by bytes", `println(["b", "a", "B", "", "ab"].sort())`, "[, B, a, ab, b]"},
		{"equal int and float keep their order", `println([2, 1.0, 1, 0.5, 1.0, 1].sort())`, "[0.5, 1.0, 1, 1.0, 1, 2]"},
		{"bool comparator, stable", `
let xs = [{k: 2, v: "a"}, {k: 1, v: "b"}, {k: 2, v: "c"}, {k: 1, v: "d"}]
println(xs.sort({ a, b -> a.k < b.k }).map({ x -> x.v }))`, "[b, d, a, c]"},
		{"number comparator, descending, stable", `
let xs = [{k: 2, v: "a"}, {k: 1, v: "b"}, {k: 2, v: "c"}, {k: 3, v: "d"}]
println(xs.sort({ a, b -> b.k - a.k }).map({ x -> x.v }))`, "[d, a, c, b]"},
		{"sort_by is stable", `
println(["bb", "a", "cc", "d", "eee"].sort_by({ s -> len(s) }))`, "[a, d, bb, cc, eee]"},
		{"the receiver is not modified", `
let xs = [3, 1, 2]
let ys = xs.sort()
println([xs, ys])`, "[[3, 1, 2], [1, 2, 3]]"},
		{"a comparator cannot change the list it sorts", `
var xs = [[2], [1]]
let ys = xs.sort({ a, b -> a[0] < b[0] })
println([xs, ys])`, "[[[2], [1]], [[1], [2]]]"},
		{"a comparator's error stops the sort", `
var calls = 0
try {
  [3, 2, 1, 4, 5, 6].sort({ a, b -> throw "no order" })
} catch (e) {
  println(e)
}`, "no order"},
		{"large int list", `
var xs = []
var x = 1
for i in 0 to 9999 {
  x = (x * 16807) % 2147483647
  xs = xs.push(x)
}
let s = xs.sort()
var ok = true
for i in 1 to 9999 {
  if s[i - 1] > s[i] {
    ok = false
  }
}
println([ok, len(s)])`, "[true, 10000]"},
		{"large comparator sort is stable", `
var xs = []
for i in 0 to 4999 {
  xs = xs.push({k: (i * 7919) % 13, i: i})
}
let s = xs.sort({ a, b -> a.k < b.k })
var ok = true
for i in 1 to 4999 {
  let p = s[i - 1]
  let q = s[i]
  if p.k > q.k || (p.k == q.k && p.i > q.i) {
    ok = false
  }
}
println(ok)`, "true"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runSource(t, c.src, runOpts{})
			if err != nil {
				t.Fatalf("%v\noutput: %s", err, out)
			}
			if got := strings.TrimSpace(out); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestSortChargesSteps: a sort counts its comparisons against the step
// budget before it starts, so a budget too small for the sort stops it.
func TestSortChargesSteps(t *testing.T) {
	src := `
var xs = []
for i in 0 to 99999 {
  xs = xs.push(i % 7)
}
println(len(xs.sort()))
`
	if _, err := runSource(t, src, runOpts{maxSteps: 1 << 30}); err != nil {
		t.Fatalf("a generous budget: %v", err)
	}
	_, err := runSource(t, src, runOpts{maxSteps: 500000})
	var le *execution.LimitError
	if !errors.As(err, &le) || le.Resource != execution.Steps {
		t.Fatalf("sort of 100,000 under a 500,000-step budget: err = %v, want the step budget", err)
	}
}
