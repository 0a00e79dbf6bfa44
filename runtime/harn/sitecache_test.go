package harn

import (
	"strings"
	"testing"
)

// TestCallSiteCaches: a member read, a struct literal and a method call
// keep what they looked up for the last struct type they saw; the same
// site seeing other types, field orders and impl blocks still reads the
// right field and calls the right method.
func TestCallSiteCaches(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"member read across types with other field orders", `struct A {
  x: int
  y: int
}
struct B {
  y: int
  x: int
}
struct C {
  z: int
}
fn getx(v) { return v.x }
pipeline default() {
  for v in [A {x: 1, y: 2}, B {y: 3, x: 4}, A {x: 5, y: 6}, C {z: 7}, B {x: 8, y: 9}] {
    println(getx(v))
  }
}
`, "1\n4\n5\nnil\n8\n"},
		{"impl methods of two types at one site", `struct A {
  n: int
}
struct B {
  n: int
}
impl A {
  fn name(self) { return "A" + to_string(self.n) }
}
impl B {
  fn name(self) { return "B" + to_string(self.n) }
}
fn call(v) { return v.name() }
pipeline default() {
  for v in [A {n: 1}, B {n: 2}, A {n: 3}] {
    println(call(v))
  }
}
`, "A1\nB2\nA3\n"},
		{"a struct without the impl method calls its closure field", `struct H {
  f: any
}
struct G {
  n: int
}
impl G {
  fn f(self, k) { return self.n + k }
}
fn call(v) { return v.f(10) }
pipeline default() {
  println(call(G {n: 1}))
  println(call(H {f: { k -> k * 2 }}))
  println(call(G {n: 2}))
}
`, "11\n20\n12\n"},
		{"a function of an impl block called on a value gets no self", `struct P {
  x: int
}
impl P {
  fn origin() { return P {x: 0} }
  fn moved(self, dx) { return P {x: self.x + dx} }
}
pipeline default() {
  let p = P {x: 3}
  println(p.origin().x)
  println(p.moved(2).moved(3).x)
}
`, "0\n8\n"},
		{"a literal's unknown field is an error", `struct P {
  x: int
}
pipeline default() {
  println(P {x: 1}.x)
  let q = P {y: 2}
}
`, "struct P has no field `y`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runSource(t, tt.src, runOpts{})
			got := out
			if err != nil {
				got += err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestStructMethodCallAllocations: calling a method of a struct and
// reading its fields allocate nothing per call (the receiver and the
// arguments go on the value stack); a struct literal is one allocation.
func TestStructMethodCallAllocations(t *testing.T) {
	const n = 1000
	tests := []struct {
		name, body string
		max        float64
	}{
		{"method calls and field reads", "total = total + p.sum() + p.plus(i, 2) + p.x", 20},
		{"a method returning a new struct", "p = p.moved(1)", n + 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `struct Point {
  x: int
  y: int
}

impl Point {
  fn moved(self, dx) {
    return Point {x: self.x + dx, y: self.y}
  }

  fn sum(self) {
    return self.x + self.y
  }

  fn plus(self, a, b) {
    return self.x + a + b
  }
}

fn main() {
  var p = Point {x: 0, y: 1}
  var total = 0
  for i in 1 to 1000 {
    ` + tt.body + `
  }
  return total
}
`
			p := loadHarn(t, "allocs", src)
			p.run(t)
			if got := testing.AllocsPerRun(5, func() { p.run(t) }); got > tt.max {
				t.Errorf("%d iterations allocate %.0f objects, want at most %.0f", n, got, tt.max)
			}
		})
	}
}
