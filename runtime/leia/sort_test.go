package leia

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/execution"
)

// TestSort pins what table.sort and the sort module promise: Lua's order
// (metamethods included), stability (upstream sorts with
// sort.SliceStable), comparators written in Leia, and errors that unwind
// through the sort leaving the table as it was.
func TestSort(t *testing.T) {
	const show = `func show(t) { parts := {}; for i, v := range t { parts[i] = tostring(v) }; return table.concat(parts, " ") }
`
	cases := []struct {
		name, src, want string
	}{
		{"integers", `t := {5, -1, 3, 3, 0, math.maxinteger, math.mininteger}; table.sort(t); return show(t)`,
			"-9223372036854775808 -1 0 3 3 5 9223372036854775807"},
		{"strings by bytes", `t := {"b", "a", "B", "ab"}; table.sort(t); return show(t)`, "B a ab b"},
		{"equal integer and float keep their order", `t := {2, 1.0, 1, 0.5, 1.0, 1}; table.sort(t); return show(t)`, "0.5 1.0 1 1.0 1 2"},
		{"comparator, stable", `
t := {{k: 2, v: "a"}, {k: 1, v: "b"}, {k: 2, v: "c"}, {k: 1, v: "d"}}
table.sort(t, func(a, b) { return a.k < b.k })
out := {}
for i, x := range t { out[i] = x.v }
return show(out)`, "b d a c"},
		{"__lt metamethod", `
mt := {__lt: func(a, b) { return a.n > b.n }}
t := {}
for i := 1; i <= 40; i++ { t[i] = setmetatable({n: i % 7}, mt) }
table.sort(t)
out := {}
for i, x := range t { out[i] = x.n }
return table.concat(out, "")`, "6666655555544444433333322222211111100000"},
		{"sort.desc keeps equal elements in place", `
t := {1, 2.0, 2, 3}
sort.desc(t)
return show(t)`, "3 2.0 2 1"},
		{"sort.by is stable", `
t := {"bb", "a", "cc", "d", "eee"}
sort.by(t, func(a, b) { return #a < #b })
return show(t)`, "a d bb cc eee"},
		{"sort.byKey is stable", `
t := {"bb", "a", "cc", "d", "eee"}
sort.byKey(t, func(s) { return #s })
return show(t)`, "a d bb cc eee"},
		{"large integer array", `
t := {}
x := 1
for i := 1; i <= 10000; i++ { x = (x * 16807) % 2147483647; t[i] = x }
table.sort(t)
for i := 2; i <= 10000; i++ { if t[i - 1] > t[i] { return "unsorted at " .. i } }
return "ok " .. #t`, "ok 10000"},
		{"large comparator sort is stable", `
t := {}
for i := 1; i <= 5000; i++ { t[i] = {k: (i * 7919) % 13, i: i} }
table.sort(t, func(a, b) { return a.k < b.k })
for i := 2; i <= 5000; i++ {
  p, q := t[i - 1], t[i]
  if p.k > q.k || (p.k == q.k && p.i > q.i) { return "bad at " .. i }
}
return "ok"`, "ok"},
		{"an error in the comparator leaves the table as it was", `
t := {3, 1, 2, 5, 4}
ok, err := pcall(table.sort, t, func(a, b) { error("no order") })
return tostring(ok) .. " " .. show(t)`, "false 3 1 2 5 4"},
		{"mixed types are an error", `
ok, err := pcall(table.sort, {1, "a", 2})
return tostring(ok)`, "false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := compileRun(t, show+c.src, Options{}, context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := r[0].AsString(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestSortChargesSteps: a sort counts its comparisons against the step
// budget before it starts, so a budget too small for the sort stops it.
func TestSortChargesSteps(t *testing.T) {
	src := `t := {}; for i := 1; i <= 100000; i++ { t[i] = i % 7 }; table.sort(t); return #t`
	if _, err := compileRun(t, src, Options{Limits: execution.Limits{Steps: 1 << 30}}, context.Background()); err != nil {
		t.Fatalf("a generous budget: %v", err)
	}
	_, err := compileRun(t, src, Options{Limits: execution.Limits{Steps: 500000}}, context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget || !strings.Contains(e.Error(), "step budget") {
		t.Fatalf("sort of 100,000 under a 500,000-step budget: err = %v, want the step budget", err)
	}
}
