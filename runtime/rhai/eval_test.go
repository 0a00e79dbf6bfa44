package rhai

import (
	"strings"
	"testing"
)

// show renders a value with its type, e.g. "i64 3" or `string "a"`.
func show(v Value) string {
	var b strings.Builder
	writeDebug(&b, v, 0)
	return TypeName(v) + " " + b.String()
}

func run(t *testing.T, src string, lim Limits) (Value, *EvalError) {
	t.Helper()
	p, perr := Compile(src, lim.MaxExprDepth)
	if perr != nil {
		t.Fatalf("compile %q: %v", src, perr)
	}
	return p.Run(lim)
}

type evalCase struct {
	name string
	src  string
	want string // show() of the result; empty when an error is expected
	err  string // substring of the error
	kind ErrorKind
}

func checkCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := run(t, c.src, Limits{})
			if c.err != "" {
				if err == nil {
					t.Fatalf("want error %q, got %s", c.err, show(v))
				}
				if !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %q does not contain %q", err.Error(), c.err)
				}
				if err.Kind != c.kind {
					t.Fatalf("error kind %v, want %v", err.Kind, c.kind)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := show(v); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestLanguage(t *testing.T) {
	checkCases(t, []evalCase{
		{name: "int literal forms", src: "0x1f + 0o7 + 0b11 + 1_000", want: "i64 1041"},
		{name: "float literal", src: "2.5e-3 * 1000.0", want: "f64 2.5"},
		{name: "unit literal", src: "()", want: "() ()"},
		{name: "char literal", src: "'x'", want: "char 'x'"},
		{name: "string escapes", src: `"a\tb\x41\u00e9\U0001F600\"\\"`, want: "string \"a\\tbAé😀\\\"\\\\\""},
		{name: "line continuation in string", src: "\"ab\\\n    cd\"", want: `string "abcd"`},
		{name: "raw string", src: `#"no \n escape"#`, want: `string "no \\n escape"`},
		{name: "backtick interpolation", src: "let x = 4; `x=${x + 1}, ${[1]}, ${()}!`", want: `string "x=5, [1], !"`},
		{name: "backtick spans lines, no escapes", src: "`a\\n\nb`", want: `string "a\\n\nb"`},
		{name: "nested block comment", src: "/* a /* b */ c */ 1 // tail", want: "i64 1"},
		{name: "array literal trailing comma", src: "[1, 2,]", want: "array [1, 2]"},
		{name: "map literal string key", src: `#{a: 1, "b c": 2}`, want: `map #{"a": 1, "b c": 2}`},
		{name: "let without value is unit", src: "let x; x", want: "() ()"},
		{name: "shadowing", src: "let x = 1; let x = x + 1; x", want: "i64 2"},
		{name: "const read", src: "const X = 3; X * 2", want: "i64 6"},
		{name: "const assign is an error", src: "const X = 3; X = 4;", err: "Cannot modify constant", kind: ErrRuntime},
		{name: "undeclared variable", src: "y + 1", err: "Variable not found: y", kind: ErrRuntime},
		{name: "assign undeclared", src: "y = 1;", err: "Variable not found: y", kind: ErrRuntime},
		{name: "if expression", src: "let v = if 1 > 2 { 1 } else if 2 > 1 { 2 } else { 3 }; v", want: "i64 2"},
		{name: "if without else false is unit", src: "if false { 1 }", want: "() ()"},
		{name: "strict bool in if", src: "if 1 { 2 }", err: "Data type incorrect: i64 (expecting bool)", kind: ErrRuntime},
		{name: "strict bool in &&", src: `true && "x"`, err: "expecting bool", kind: ErrRuntime},
		{name: "strict bool in !", src: "!0", err: "expecting bool", kind: ErrRuntime},
		{name: "short circuit and", src: "false && (1 / 0 == 1)", want: "bool false"},
		{name: "short circuit or", src: "true || undefined_var", want: "bool true"},
		{name: "non short circuit & on bools", src: "false & true", want: "bool false"},
		{name: "while loop", src: "let i = 0; let s = 0; while i < 5 { i += 1; if i == 2 { continue; } s += i; } s", want: "i64 13"},
		{name: "loop break value", src: "let i = 0; loop { i += 1; if i > 3 { break i * 10; } }", want: "i64 40"},
		{name: "do until", src: "let i = 0; do { i += 1; } until i >= 3; i", want: "i64 3"},
		{name: "do while runs body first", src: "let i = 10; do { i += 1; } while i < 3; i", want: "i64 11"},
		{name: "for over range", src: "let s = 0; for i in 1..4 { s += i; } s", want: "i64 6"},
		{name: "for over inclusive range", src: "let s = 0; for i in 1..=4 { s += i; } s", want: "i64 10"},
		{name: "for over array with counter", src: "let s = ``; for (x, i) in [\"a\", \"b\"] { s += `${i}${x}`; } s", want: `string "0a1b"`},
		{name: "for over string chars", src: "let n = 0; for c in \"héllo\" { if c == 'l' { n += 1; } } n", want: "i64 2"},
		{name: "for over map is an error", src: "for k in #{a: 1} {}", err: "For loop expects iterable type", kind: ErrRuntime},
		{name: "for over step range", src: "let s = []; for i in range(10, 0, -3) { s.push(i); } s", want: "array [10, 7, 4, 1]"},
		{name: "break value from for", src: "for x in [1, 5, 9] { if x > 3 { break x; } }", want: "i64 5"},
		{name: "block value despite trailing semicolon", src: "let v = { 1; 2; }; v", want: "i64 2"},
		{name: "switch literal", src: `switch 2 { 1 => "a", 2 | 3 => "b", _ => "c" }`, want: `string "b"`},
		{name: "switch guard", src: `let x = 5; switch x { 5 if x > 9 => "big", 5 => "five", _ => "?" }`, want: `string "five"`},
		{name: "switch range case", src: `switch 42 { 0..10 => "low", 10..=99 => "mid", _ => "high" }`, want: `string "mid"`},
		{name: "switch no match is unit", src: `switch "z" { "a" => 1 }`, want: "() ()"},
		{name: "switch matches by hash, not numeric equality (read from source)", src: `switch 1.0 { 1 => "int", _ => "other" }`, want: `string "other"`},
		{name: "switch block arm", src: `switch 1 { 1 => { let y = 2; y * 3 } _ => 0 }`, want: "i64 6"},
		{name: "try catch thrown value", src: `try { throw "boom"; } catch (e) { e }`, want: `string "boom"`},
		{name: "try catch engine error map (read from source)", src: `try { let x = 1 / 0; } catch (e) { type_of(e) + ":" + e.message }`, want: `string "map:Division by zero: 1 / 0"`},
		{name: "catch error map has line", src: "try {\n  undefined_var\n} catch (e) { e.line }", want: "i64 2"},
		{name: "bare throw rethrows (read from source)", src: `try { try { throw 7; } catch { throw; } } catch (e) { e + 1 }`, want: "i64 8"},
		{name: "throw without catch", src: `throw "bad input";`, err: "Runtime error: bad input (line 1, position 1)", kind: ErrThrow},
		{name: "throw unit", src: `throw;`, err: "Runtime error", kind: ErrThrow},
		{name: "functions before definition", src: "f(2); fn f(x) { x * 2 }", want: "i64 4"},
		{name: "functions overload by arity", src: "fn f(a) { 1 } fn f(a, b) { 2 } f(0) * 10 + f(0, 0)", want: "i64 12"},
		{name: "functions cannot see outer let", src: "let top = 1; fn f() { top } f()", err: "Variable not found: top", kind: ErrRuntime},
		{name: "functions see global constants", src: "const LIMIT = 7; fn f() { global::LIMIT } f()", want: "i64 7"},
		{name: "arguments by value", src: "fn f(a) { a.push(9); a.len() } let x = [1]; let n = f(x); `${n} ${x.len()}`", want: `string "2 1"`},
		{name: "method call binds this", src: "fn bump(n) { this += n; } let x = 1; x.bump(4); x", want: "i64 5"},
		{name: "return from nested loop", src: "fn f() { for i in 0..10 { if i == 3 { return i; } } -1 } f()", want: "i64 3"},
		{name: "nested function error names the call", src: "fn inner() { throw \"x\"; } fn outer() { inner() } outer()", err: "in call to function 'inner'\nin call to function 'outer'", kind: ErrThrow},
		{name: "function not found", src: "nope(1, \"a\")", err: "Function not found: nope (i64, string)", kind: ErrRuntime},
		{name: "closure with filter", src: "let k = 2; [1, 2, 3, 4].filter(|x| x > k)", want: "array [3, 4]"},
		{name: "closures share captured variables (read from source)", src: "let count = 0; let big = [1, 2, 3].filter(|x| { count += 1; x > 1 }); `${count} ${big}`", want: `string "3 [2, 3]"`},
		{name: "closures see later changes to captured variables (read from source)", src: "let k = 1; let f = |x| x + k; k = 10; [1].map(f)", want: "array [11]"},
		{name: "closure capture keeps value semantics for copies", src: "let a = [1]; let f = |x| a.push(x); let b = a; [5].map(f); `${a} ${b}`", want: `string "[1, 5] [1]"`},
		{name: "closure gets index", src: "[5, 6].map(|x, i| x * i)", want: "array [0, 6]"},
		{name: "value semantics on copy", src: "let a = [1, [2]]; let b = a; b[1].push(3); b[0] = 9; `${a} ${b}`", want: `string "[1, [2]] [9, [2, 3]]"`},
		{name: "value semantics for maps", src: "let a = #{x: #{y: 1}}; let b = a; b.x.y = 2; a.x.y * 10 + b.x.y", want: "i64 12"},
		{name: "pushing an array into itself pushes a copy", src: "let a = [1]; a.push(0); a.push(a); a.push(a); a", want: "array [1, 0, [1, 0], [1, 0, [1, 0]]]"},
		{name: "assigning a map into itself stores a copy", src: "let m = #{a: 1}; m.b = 2; m.x = m; m.x = m; m.x.x.x == ()", want: "bool true"},
		{name: "missing map key is unit", src: "let m = #{a: 1}; m.b == ()", want: "bool true"},
		{name: "missing key read leaves map unchanged", src: "let m = #{a: 1}; let v = m.b; m.len()", want: "i64 1"},
		{name: "property on unit is an error", src: "let m = #{}; m.a.b", err: "Unknown property 'b' - a getter is not registered for type '()'", kind: ErrRuntime},
		{name: "safe property on unit", src: "let m = #{}; m.a?.b", want: "() ()"},
		{name: "safe mutating method on unit", src: "let m = #{}; m.list?.push(1)", want: "() ()"},
		{name: "safe method on a value runs", src: "let m = #{list: [1]}; m.list?.push(2); m.list", want: "array [1, 2]"},
		{name: "safe index on unit", src: "let m = #{}; m.a?[0]", want: "() ()"},
		{name: "len property on map reads a key", src: "let m = #{a: 1}; m.len", want: "() ()"},
		{name: "len property on string", src: `"héllo".len`, want: "i64 5"},
		{name: "is_empty property is exact", src: `"  ".is_empty`, want: "bool false"},
		{name: "property assignment creates key", src: "let m = #{}; m.k = 3; m.k", want: "i64 3"},
		{name: "index array negative", src: "[1, 2, 3][-1]", want: "i64 3"},
		{name: "index array out of range", src: "[1, 2, 3][3]", err: "Array index 3 out of bounds: only 3 elements in array", kind: ErrRuntime},
		{name: "index map missing", src: `#{a: 1}["b"]`, want: "() ()"},
		{name: "index string gives char", src: `"héllo"[1]`, want: "char 'é'"},
		{name: "index string out of range", src: `"ab"[5]`, err: "String index 5 out of bounds", kind: ErrRuntime},
		{name: "index assignment on string", src: `let s = "abc"; s[1] = 'X'; s`, want: `string "aXc"`},
		{name: "in substring", src: `"ell" in "hello"`, want: "bool true"},
		{name: "in char", src: `'z' in "hello"`, want: "bool false"},
		{name: "in array", src: "2 in [1, 2.0]", want: "bool true"},
		{name: "in map key", src: `"a" in #{a: ()}`, want: "bool true"},
		{name: "not in", src: "5 !in 1..5", want: "bool true"},
		{name: "in range", src: "3 in 1..=3", want: "bool true"},
		{name: "null coalescing", src: "let m = #{}; m.a ?? 5", want: "i64 5"},
		{name: "equality int float (read from source)", src: "1 == 1.0", want: "bool true"},
		{name: "equality char string (read from source)", src: `'a' == "a"`, want: "bool true"},
		{name: "equality unit (read from source)", src: "() == ()", want: "bool true"},
		{name: "different types unequal (read from source)", src: `[() == 0, () == "", #{} == (), 1 != "1"]`, want: "array [false, false, false, true]"},
		{name: "different types do not order (read from source)", src: `[1 < "2", "2" > 1]`, want: "array [false, false]"},
		{name: "deep array equality", src: "[1, [2, #{a: 3}]] == [1, [2, #{a: 3}]]", want: "bool true"},
		{name: "precedence mul over add", src: "1 + 2 * 3", want: "i64 7"},
		{name: "power is right associative", src: "2 ** 3 ** 2", want: "i64 512"},
		{name: "shift binds tighter than add", src: "1 + 1 << 2", want: "i64 5"},
		{name: "comparison below range", src: "1 < 2 == true", want: "bool true"},
		{name: "unary minus", src: "-(3 - 5)", want: "i64 2"},
		{name: "int division truncates", src: "-7 / 2", want: "i64 -3"},
		{name: "int op float gives float", src: "1 + 0.5", want: "f64 1.5"},
		{name: "float divide by zero is inf", src: "1.0 / 0.0", want: "f64 inf"},
		{name: "int divide by zero", src: "1 / 0", err: "Division by zero", kind: ErrRuntime},
		{name: "int modulo by zero", src: "1 % 0", err: "Division by zero", kind: ErrRuntime},
		{name: "addition overflow", src: "9223372036854775807 + 1", err: "Addition overflow", kind: ErrRuntime},
		{name: "subtraction overflow", src: "-9223372036854775807 - 2", err: "Subtraction overflow", kind: ErrRuntime},
		{name: "multiplication overflow", src: "4611686018427387904 * 2", err: "Multiplication overflow", kind: ErrRuntime},
		{name: "multiplication near limit", src: "-4611686018427387904 * 2", want: "i64 -9223372036854775808"},
		{name: "power overflow", src: "2 ** 63", err: "Exponentiation overflow", kind: ErrRuntime},
		{name: "power of minus one", src: "(-1) ** 1000001", want: "i64 -1"},
		{name: "negative exponent", src: "2 ** -1", err: "negative index", kind: ErrRuntime},
		{name: "shift overflow", src: "1 << 64", err: "Left-shift overflow", kind: ErrRuntime},
		{name: "bitwise ops", src: "(6 & 3) + (6 | 1) + (6 ^ 2)", want: "i64 13"},
		{name: "string plus anything", src: `"a" + 1 + () + 'c' + true`, want: `string "a1ctrue"`},
		{name: "unit plus string", src: `() + "x"`, want: `string "x"`},
		{name: "char plus char", src: `'a' + 'b'`, want: `string "ab"`},
		{name: "array plus array", src: "[1] + [2, 3]", want: "array [1, 2, 3]"},
		{name: "map plus map", src: "#{a: 1, b: 1} + #{b: 2}", want: `map #{"a": 1, "b": 2}`},
		{name: "plus-assign array pushes", src: "let a = [1]; a += 2; a += [3, 4]; a", want: "array [1, 2, 3, 4]"},
		{name: "plus-assign string", src: `let s = "a"; s += 'b'; s += 1; s`, want: `string "ab1"`},
		{name: "compound assign ops", src: "let x = 10; x -= 3; x *= 2; x /= 7; x **= 3; x %= 5; x <<= 2; x", want: "i64 12"},
		{name: "string comparison", src: `"abc" < "abd"`, want: "bool true"},
		{name: "import fails at run time", src: `import "fs" as fs;`, err: "Module not found: fs", kind: ErrRuntime},
		{name: "exit ends the run with a value (read from source)", src: "exit(42); 1", want: "i64 42"},
		{name: "statement if needs no semicolon", src: "let x = 1; if x > 0 { x = 2 } x", want: "i64 2"},
		{name: "paren if continues into binary", src: "(if true { 1 } else { 2 }) + 1", want: "i64 2"},
		{name: "unary on string errors", src: `-"a"`, err: "Function not found: - (string)", kind: ErrRuntime},
		{name: "float display (read from source)", src: "`${1.0} ${2.5} ${1e20} ${1.5e-14} ${-0.0} ${0.1 + 0.2} ${12345678901234.0} ${1234567890123.0} ${1.0 / 0.0}`",
			want: `string "1.0 2.5 1e20 1.5e-14 0.0 0.30000000000000004 1.2345678901234e13 1234567890123.0 inf"`},
	})
}

func TestCallRunsTopLevelFirst(t *testing.T) {
	src := "const PREFIX = \"v:\"; let ignored = 1; fn validate(c) { global::PREFIX + c }"
	p, perr := Compile(src, 0)
	if perr != nil {
		t.Fatal(perr)
	}
	v, err := p.Call("validate", []Value{"x"}, Limits{})
	if err != nil || v != "v:x" {
		t.Fatalf("got %v, %v", v, err)
	}
	// A throw in top-level statements fails every call.
	p, _ = Compile("throw \"top\"; fn validate(c) { () }", 0)
	if _, err := p.Call("validate", []Value{"x"}, Limits{}); err == nil || err.Kind != ErrThrow {
		t.Fatalf("want a thrown error, got %v", err)
	}
	// The wrapper of the called function itself is not reported.
	p, _ = Compile("fn validate(c) { throw \"boom\"; }", 0)
	_, err = p.Call("validate", []Value{"x"}, Limits{})
	if err == nil || err.Error() != "Runtime error: boom (line 1, position 18)" {
		t.Fatalf("got %v", err)
	}
	// exit(v) inside the function returns v (read from Rhai's source).
	p, _ = Compile("fn validate(c) { exit(\"early\"); 1 }", 0)
	if v, err := p.Call("validate", []Value{"x"}, Limits{}); err != nil || v != "early" {
		t.Fatalf("exit: got %v, %v", v, err)
	}
	if _, err := p.Call("missing", []Value{"x"}, Limits{}); err == nil || !strings.Contains(err.Error(), "Function not found: missing (string)") {
		t.Fatalf("missing function: %v", err)
	}
}
