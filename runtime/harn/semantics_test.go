package harn

import (
	"strings"
	"testing"
)

// Table-driven checks of language semantics: each program's output must
// match exactly.
func TestSemantics(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"list values are copied on write", `
var a = [1, 2, 3]
let b = a
a[0] = 9
println([a, b])`, "[[9, 2, 3], [1, 2, 3]]"},
		{"nested copy on write", `
var outer = {inner: [1, 2]}
let saved = outer.inner
outer.inner[0] = 5
println([outer, saved])`, "[{inner: [5, 2]}, [1, 2]]"},
		{"element aliases survive the parent's copy", `
let inner = [1]
var xs = [inner, inner]
let ys = xs
xs[0][0] = 7
println([xs, ys, inner])`, "[[[7], [1]], [[1], [1]], [1]]"},
		{"push builds without disturbing earlier values", `
var xs = []
for i in 0 to 4 {
  xs = xs.push(i)
}
let head = xs
let other = head.push(99)
xs = xs.push(100)
println([head, other, xs])`, "[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 99], [0, 1, 2, 3, 4, 100]]"},
		{"methods never mutate", `
let d = {a: 1}
d.remove("a")
let s = [3, 1]
s.sort()
println([d, s])`, "[{a: 1}, [3, 1]]"},
		{"struct fields copy on write", `
struct P {
  x: int
}
var p = P { x: 1 }
let q = p
p.x = 2
println([p.x, q.x])`, "[2, 1]"},
		{"a loop iterates the value it started with", `
var xs = [1, 2, 3]
for x in xs {
  xs = xs.push(x)
}
println(xs)`, "[1, 2, 3, 1, 2, 3]"},
		{"closures capture by value", `
fn f() {
  var n = 1
  let get = { -> n }
  n = 5
  let inc = { -> n = n + 1; return n }
  return [get(), inc(), inc(), n]
}
println(f())`, "[1, 6, 6, 5]"},
		{"local functions recurse and see each other", `
fn outer() {
  fn ping(n) { return n == 0 ? "ping" : pong(n - 1) }
  fn pong(n) { return n == 0 ? "pong" : ping(n - 1) }
  return [ping(3), pong(3)]
}
println(outer())`, "[pong, ping]"},
		{"defaults see earlier parameters", `
fn f(a, b = a * 2, c = b + 1) { return [a, b, c] }
println([f(1), f(1, 5), f(1, 5, 0)])`, "[[1, 2, 3], [1, 5, 6], [1, 5, 0]]"},
		{"integer overflow wraps", `
println(9223372036854775807 + 1)`, "-9223372036854775808"},
		{"finally runs on return and keeps the result", `
fn f() {
  try {
    return "body"
  } finally {
    println("cleanup")
  }
}
println(f())`, "cleanup\nbody"},
		{"break and continue through try", `
var seen = []
for i in 0 to 5 {
  try {
    if i == 1 { continue }
    if i == 3 { break }
    seen = seen.push(i)
  } catch (e) {
  }
}
println(seen)`, "[0, 2]"},
		{"typed catch lets other errors through", `
enum E { A }
let r = try {
  try {
    throw "plain"
  } catch (e: E) {
    "wrong"
  }
}
println(r)`, "Result.Err(plain)"},
		{"retry rethrows when exhausted", `
var n = 0
let r = try {
  retry 3 {
    n += 1
    throw "again"
  }
}
println([n, r])`, "[3, Result.Err(again)]"},
		{"string indexing counts characters", `
let s = "añb"
println([s[1], s.count, s[-1], s[5]])`, "[ñ, 3, b, nil]"},
		{"dict keys from expressions", `
let k = "dyn"
println({[k]: 1, [1 + 1]: 2, "a b": 3})`, "{2: 2, a b: 3, dyn: 1}"},
		{"nil-safe access and errors", `
let d = nil
println(d?.x?.y)
let r = try { d.x }
println(r)`, "nil\nResult.Err(Type error: cannot access property `x` on nil)"},
		{"ranges are lazy", `
let r = 1 to 1000000000
println([r.count, r[5], r.first, r.last])`, "[1000000000, 6, 1, 1000000000]"},
		{"sets deduplicate structurally", `
println(set(1, 1.0, [1], [1], {a: 1}, {a: 1}).count)`, "3"},
		{"generators stop early without leaking", `
fn nat() {
  var i = 0
  while true {
    yield i
    i += 1
  }
}
var got = []
for n in nat() {
  if n >= 3 { break }
  got = got.push(n)
}
println(got)
println(iter(nat()).map({ x -> x * 2 }).take(4).to_list())`, "[0, 1, 2]\n[0, 2, 4, 6]"},
		{"tasks take turns deterministically", `
let ch = channel("c", 1)
let a = spawn {
  for i in 0 to 2 { send(ch, "a${i}") }
}
let b = spawn {
  for i in 0 to 2 { send(ch, "b${i}") }
}
var got = []
for i in 0 to 5 {
  got = got.push(receive(ch))
}
await(a)
await(b)
println(got.sort())`, "[a0, a1, a2, b0, b1, b2]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runSource(t, c.src, runOpts{})
			if err != nil {
				t.Fatalf("error: %v\noutput: %s", err, out)
			}
			if got := strings.TrimRight(out, "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestErrorPositions: an uncaught error carries the position of the node
// that raised it and of every call on the way out.
func TestErrorPositions(t *testing.T) {
	src := `fn inner(x) {
  let y = x + 1
  return y / 0
}

fn middle() {
  let v = inner(1)
  return v
}

middle()
`
	_, err := runSource(t, src, runOpts{})
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("got %T %v", err, err)
	}
	got := e.Format()
	for _, want := range []string{
		"error: Division by zero",
		"at inner (",
		"main.harn:3:10)",
		"at middle (",
		"main.harn:7:11)",
		"at <top level> (",
		"main.harn:11:1)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("trace lacks %q:\n%s", want, got)
		}
	}
	if _, line, col, ok := e.Pos(); !ok || line != 3 || col != 10 {
		t.Errorf("Pos = %d:%d", line, col)
	}
}

// TestRuntimeErrorsAreValues: runtime errors are caught as their message.
func TestRuntimeErrorsAreValues(t *testing.T) {
	cases := map[string]string{
		`let r = try { [1] + 1 }`:                            "Type error: Cannot add list and int",
		`let r = try { no_such_variable }`:                   "Undefined variable: no_such_variable",
		`let r = try { unwrap(Err("e")) }`:                   "Runtime error: unwrap called on Err: e",
		`let r = try { json_parse("{") }`:                    "JSON parse error:",
		`let r = try { assert_eq(1, 2) }`:                    "Assertion failed: expected 2, got 1",
		`let r = try { regex_match("(", "x") }`:              "Invalid regex:",
		`let r = try { [1, 2][5] = 1; 0 }`:                   "",
		`let r = try { range("x") }`:                         "Type error: range(n): expected integer argument",
		`let r = try { "a" * 99999999999999 }`:               "Runtime error: string repetition would exceed",
		`let r = try { let {a} = 5; a }`:                     "Type error: dict destructuring requires a dict value",
		`let r = try { match 3 { 1 -> { 0 } } }`:             "No match arm matched the value",
		`let r = try { Ok(1).missing.thing }`:                "Type error: cannot access property `thing` on nil",
		`let r = try { spawn { throw "in task" } |> await }`: "in task",
	}
	for src, want := range cases {
		out, err := runSource(t, src+"\nprintln(is_err(r) ? unwrap_err(r) : \"\")\n", runOpts{})
		if err != nil {
			if want == "" {
				continue
			}
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !strings.HasPrefix(out, want) {
			t.Errorf("%s: got %q, want prefix %q", src, out, want)
		}
	}
}

func TestTryFinallyWithoutCatch(t *testing.T) {
	src := `var ran = false
let r = try {
  try {
    throw "inner"
  } finally {
    ran = true
  }
}
println([r, ran])`
	out, err := runSource(t, src, runOpts{})
	if err != nil || strings.TrimSpace(out) != "[Result.Err(inner), true]" {
		t.Fatalf("got %q, %v", out, err)
	}
}
