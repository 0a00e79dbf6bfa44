package rhai

import (
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	small := Limits{MaxOperations: 500, MaxStringSize: 100, MaxArraySize: 50, MaxMapSize: 20, MaxCallLevels: 8, MaxExprDepth: 32}
	cases := []struct {
		name     string
		src      string
		lim      Limits
		kind     ErrorKind
		msg      string // empty: must succeed
		want1000 bool
	}{
		{name: "runaway loop stops at the budget", src: "loop {}", kind: ErrTooManyOperations, msg: "Too many operations"},
		{name: "runaway while stops", src: "let i = 0; while true { i += 1; }", kind: ErrTooManyOperations, msg: "Too many operations"},
		{name: "budget is configurable: small budget fails", src: "let s = 0; for i in 0..100 { s += i; } s", lim: Limits{MaxOperations: 200}, kind: ErrTooManyOperations, msg: "Too many operations"},
		{name: "budget is configurable: larger budget passes", src: "let s = 0; for i in 0..100 { s += i; } s", lim: Limits{MaxOperations: 2000}},
		{name: "op budget is not catchable (read from source)", src: "try { loop {} } catch { 1 }", lim: small, kind: ErrTooManyOperations, msg: "Too many operations"},
		{name: "string length limit", src: `let s = "x"; loop { s += s; }`, kind: ErrDataTooLarge, msg: "Length of string too large"},
		{name: "string length limit configurable", src: `let s = ""; for i in 0..101 { s += "a"; }`, lim: small, kind: ErrDataTooLarge, msg: "Length of string too large"},
		{name: "string limit not catchable (read from source)", src: `try { let s = "x"; loop { s += s; } } catch { 1 }`, kind: ErrDataTooLarge, msg: "too large"},
		{name: "pad beyond the string limit", src: `let s = ""; s.pad(2000000, "x");`, kind: ErrDataTooLarge, msg: "Length of string too large"},
		{name: "interpolation beyond the string limit", src: "let s = \"\"; s.pad(60, \"x\"); `${s}${s}`", lim: small, kind: ErrDataTooLarge, msg: "Length of string too large"},
		{name: "array size limit", src: "let a = []; loop { a.push(1); }", kind: ErrDataTooLarge, msg: "Size of array too large"},
		{name: "array size counts nested elements", src: "let a = []; for i in 0..30 { a.push([1]); }", lim: small, kind: ErrDataTooLarge, msg: "Size of array too large"},
		{name: "array literal over the limit", src: "let a = [1,2,3,4,5,6,7,8,9,10]; a + a + a + a + a + a", lim: small, kind: ErrDataTooLarge, msg: "Size of array too large"},
		{name: "map size limit", src: `let m = #{}; for i in 0..21 { m["k" + i] = i; }`, lim: small, kind: ErrDataTooLarge, msg: "Size of object map too large"},
		{name: "map size counts nested entries", src: `let m = #{}; for i in 0..11 { m["k" + i] = #{x: 1}; }`, lim: small, kind: ErrDataTooLarge, msg: "Size of object map too large"},
		{name: "self nesting doubles into the limit", src: "let a = [1]; loop { a.push(a); }", kind: ErrDataTooLarge, msg: "Size of array too large"},
		{name: "map self nesting", src: "let m = #{a: 1}; loop { m.a = m; m.b = m; }", kind: ErrDataTooLarge, msg: "too large"},
		{name: "call depth limit", src: "fn f(n) { f(n + 1) } f(0)", kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "call depth within the limit", src: "fn f(n) { if n == 0 { 0 } else { 1 + f(n - 1) } } f(60)"},
		{name: "call depth just past the limit", src: "fn f(n) { if n == 0 { 0 } else { 1 + f(n - 1) } } f(64)", kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "call depth configurable", src: "fn f(n) { if n == 0 { 0 } else { 1 + f(n - 1) } } f(10)", lim: small, kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "stack overflow is not catchable (read from source)", src: "fn f(n) { f(n + 1) } try { f(0) } catch { 1 }", kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "closure recursion through arrays is bounded", src: "fn g(a) { a.map(|x| g(a)) } g([1])", kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "long operator chain is bounded by eval depth", src: "1" + strings.Repeat(" + 1", 30000), lim: Limits{MaxOperations: 1_000_000}, kind: ErrStackOverflow, msg: "Stack overflow"},
		{name: "linear container work is charged to the budget", src: "let a = []; a.pad(9000, 1); loop { let b = a == a; let c = 5 in a; let d = a; d.push(1); }", kind: ErrTooManyOperations, msg: "Too many operations"},
		{name: "moderate operator chain evaluates", src: "1" + strings.Repeat(" + 1", 999), want1000: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := run(t, c.src, c.lim)
			if c.msg == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if c.want1000 && v != int64(1000) {
					t.Fatalf("got %v", v)
				}
				return
			}
			if err == nil {
				t.Fatalf("want %v error, got value %s", c.kind, show(v))
			}
			if err.Kind != c.kind || !strings.Contains(err.Message, c.msg) {
				t.Fatalf("got %v (%v), want %v containing %q", err, err.Kind, c.kind, c.msg)
			}
			if err.Catchable() {
				t.Fatalf("limit errors must not be catchable")
			}
		})
	}
}

func TestExpressionDepthIsAParseError(t *testing.T) {
	cases := []struct {
		name string
		src  string
		ok   bool
	}{
		{"parentheses within the limit", strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100), true},
		{"parentheses past the limit", strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200), false},
		{"unary chain past the limit", strings.Repeat("-", 300) + "1", false},
		{"nested blocks past the limit", strings.Repeat("{", 200) + strings.Repeat("}", 200), false},
		{"nested arrays past the limit", strings.Repeat("[", 200) + strings.Repeat("]", 200), false},
		{"right-assoc power chain past the limit", "2" + strings.Repeat(" ** 2", 300), false},
		{"interpolation nested past the lexer limit", strings.Repeat("`${", 5000) + "1" + strings.Repeat("}`", 5000), false},
		{"deep nesting in an interpolation", "`${" + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + "}`", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.src, 0)
			if c.ok != (err == nil) {
				t.Fatalf("ok=%v, err=%v", c.ok, err)
			}
			if err != nil && !strings.Contains(err.Message, "maximum complexity") && !strings.Contains(err.Message, "nested too deeply") {
				t.Fatalf("unexpected message %q", err.Message)
			}
		})
	}
}
