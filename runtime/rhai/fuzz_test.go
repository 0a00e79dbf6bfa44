package rhai

import (
	"testing"
)

// fuzzSeeds are scripts touching every construct.
var fuzzSeeds = []string{
	"fn validate(c) { let d = parse_json(c); if d.root == () { return `no root in ${c.len()}`; } () }",
	"let a = [1, 2, 3]; let m = #{a: 1, \"b\": [a]}; for (x, i) in a { m.a += x * i; } m.b[0].filter(|v| v > 1).map(|v| v ** 2)",
	"switch 3 { 1 | 2 => \"a\", 3..=9 if true => { let s = \"x\"; s.pad(3, '-'); s }, _ => () }",
	"fn f(n) { if n <= 1 { return 1; } n * f(n - 1) } try { f(20) } catch (e) { e.message }",
	"let s = \"héllo\"; s.replace(\"l\", \"L\"); s.sub_string(1, 3) + s[0] + s.index_of('o') + s.split(\"L\").join(\"+\")",
	"let i = 0; do { i += 1; if i % 2 == 0 { continue; } } until i > 10; loop { break i ?? 0; }",
	"const K = 1; fn g() { global::K } let x = this_is_undefined; g()",
	"/* /* nested */ */ let r = 1..10; 5 in r && !(\"a\" !in \"abc\") || 'c' == \"c\"",
	"#\"raw\"# + `interp ${1 + `nested ${2}`}` + \"\\x41\\u00e9\\U0001F600\"",
	"let x = 9223372036854775807; x + 1",
	"let a = [[1, 2], #{k: [3]}]; a[0].push(a); a[1].k += [4, 5]; let b = a; b[0].clear(); a.pop(); a += a; a[0].remove(0); a",
	"let m = #{a: #{b: [1]}}; m.a.b.insert(0, m); m.a.c = \"xyz\"; m.a.c.pad(9, '-'); m.a.remove(\"b\"); m.x = m; m",
}

func FuzzCompileAndRun(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	debugSizes = true
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := Compile(src, 0)
		if err != nil {
			if err.Pos < 0 || err.Pos > len(src) || err.End < err.Pos || err.Line < 1 || err.Column < 1 {
				t.Fatalf("bad error location %+v", err)
			}
			return
		}
		lim := Limits{MaxOperations: 20_000}
		if _, e := prog.Run(lim); e != nil && e.Message == "" {
			t.Fatalf("empty error message")
		}
		if len(prog.fns["validate"]) > 0 {
			prog.Call("validate", []Value{`{"root": {"component": "x"}}`}, lim)
		}
	})
}

// FuzzParseJSON runs a validator that walks whatever parse_json returns.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x", null, true, {"b": {}}]}`, `[1]`, `{"a": "\u00e9\x41"}`, `{`, `{"a":1,"a":2}`, `{"n": -0.0e-3}`} {
		f.Add(s)
	}
	prog, perr := Compile(`fn walk(v, d) { switch type_of(v) { "map" => { let n = 0; for k in v.keys() { n += walk(v[k], d + 1); } n }, "array" => { let n = 0; for x in v { n += walk(x, d + 1); } n }, _ => 1 } }
fn validate(c) { try { let doc = parse_json(c); walk(doc, 0); doc.to_json(); () } catch (e) { "" + e } }`, 0)
	if perr != nil {
		f.Fatal(perr)
	}
	f.Fuzz(func(t *testing.T, content string) {
		v, err := prog.Call("validate", []Value{content}, Limits{})
		if err == nil {
			switch v.(type) {
			case Unit, string:
			default:
				t.Fatalf("unexpected result %s", show(v))
			}
		}
	})
}
