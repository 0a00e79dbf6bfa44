package leia

import (
	"context"
	"testing"
)

// TestUnpack: table-driven unpacking reads each kind of destination, keeps
// the defaults of optional parameters left out or nil, and fails with the
// Check helpers' messages, naming the builtin by its member name.
func TestUnpack(t *testing.T) {
	rep := specOf("string.rep")     // (s: string, n: integer, sep?: string)
	join := specOf("string.join")   // (list: table, sep?: string)
	sorts := specOf("table.sort")   // (t: table, less?: function)
	fmtS := specOf("string.format") // (format: string, values...: any)
	tbl := TableValue(NewTable(0, 0))
	cases := []struct {
		name    string
		spec    *argSpec
		args    []Value
		wantErr string
		check   func(t *testing.T, dst []any)
		dst     func() []any
	}{
		{"rep converts a number to a string and keeps the default", rep, []Value{Int(7), String("3")}, "",
			func(t *testing.T, d []any) {
				if *d[0].(*string) != "7" || *d[1].(*int64) != 3 || *d[2].(*string) != "-" {
					t.Errorf("got %q %d %q", *d[0].(*string), *d[1].(*int64), *d[2].(*string))
				}
			}, func() []any { s, n, sep := "", int64(0), "-"; return []any{&s, &n, &sep} }},
		{"nil for an optional parameter keeps the default", rep, []Value{String("a"), Int(2), Nil}, "",
			func(t *testing.T, d []any) {
				if *d[2].(*string) != "-" {
					t.Errorf("sep %q", *d[2].(*string))
				}
			}, func() []any { s, n, sep := "", int64(0), "-"; return []any{&s, &n, &sep} }},
		{"a missing required argument", rep, []Value{String("a")}, "bad argument #2 to 'rep' (number expected, got no value)", nil,
			func() []any { s, n := "", int64(0); return []any{&s, &n} }},
		{"a fraction for an integer", rep, []Value{String("a"), Float(1.5)}, "bad argument #2 to 'rep' (number has no integer representation)", nil,
			func() []any { s, n := "", int64(0); return []any{&s, &n} }},
		{"a string for a table", join, []Value{String("a,b")}, "bad argument #1 to 'join' (table expected, got string)", nil,
			func() []any { var l *Table; return []any{&l} }},
		{"a table for a function", sorts, []Value{tbl, tbl}, "bad argument #2 to 'sort' (function expected, got table)", nil,
			func() []any { var l *Table; var f Value; return []any{&l, &f} }},
		{"the rest of a variadic call", fmtS, []Value{String("%d %d"), Int(1), Int(2)}, "",
			func(t *testing.T, d []any) {
				if rest := *d[1].(*[]Value); len(rest) != 2 || rest[1].AsInt() != 2 {
					t.Errorf("rest %v", rest)
				}
			}, func() []any { var f string; var rest []Value; return []any{&f, &rest} }},
	}
	for _, c := range cases {
		dst := c.dst()
		err := c.spec.unpack(c.args, dst...)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%s: got %v, want %s", c.name, err, c.wantErr)
		case c.check != nil:
			c.check(t, dst)
		}
	}
}

// TestUnpackMisuse: more destinations than parameters, or a destination
// of a type unpack does not fill, is the runtime's own mistake and
// panics; so does a builtin the table has no signature for.
func TestUnpackMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"too many":     func() { var s, x string; _ = specOf("string.upper").unpack(nil, &s, &x) },
		"bad type":     func() { var x int; _ = specOf("string.upper").unpack([]Value{String("a")}, &x) },
		"no such name": func() { _ = (&argSpec{fname: "nope", sig: &specSig{path: "string.nope"}}).unpack(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestSpecsResolve: every spec the package and a new interpreter make
// names an entry of lang/leia/stdlib with parameters (specs are read at
// their first use, so a wrong path would otherwise show only when its
// builtin is called).
func TestSpecsResolve(t *testing.T) {
	New(Options{})
	n := 0
	specs.Range(func(k, _ any) bool {
		n++
		path := k.(string)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %v", path, r)
				}
			}()
			specOf(path).params()
		}()
		return true
	})
	if n < 10 {
		t.Errorf("only %d specs recorded", n)
	}
}

// TestUnpackedModules: the modules that unpack from the table (table,
// os, json, base64, hash, encoding, url, path, regexp.quote) take and
// refuse what their entries say, with the Check helpers' messages and
// each builtin's own name in them.
func TestUnpackedModules(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"concat defaults", `return table.concat({1, 2, 3}, "-")`, "1-2-3"},
		{"concat range", `return table.concat({1, 2, 3}, "", 2)`, "23"},
		{"concat refuses", `ok, err := pcall(table.concat, {1}, {}); return err`, "bad argument #2 to 'concat' (string expected, got table)"},
		{"move into another", `b := table.move({1, 2}, 1, 2, 2, {9}); return table.concat(b, ",")`, "9,1,2"},
		{"move refuses", `ok, err := pcall(table.move, {1}, 1, "x", 1); return err`, "bad argument #3 to 'move' (number expected, got string)"},
		{"sort with less", `t := {1, 3, 2}; table.sort(t, func(a, b) { return a > b }); return table.concat(t, ",")`, "3,2,1"},
		{"sort refuses", `ok, err := pcall(table.sort, {1}, 3); return err`, "bad argument #2 to 'sort' (function expected, got number)"},
		{"keys refuses", `ok, err := pcall(table.keys, "x"); return err`, "bad argument #1 to 'keys' (table expected, got string)"},
		{"difftime", `return tostring(os.difftime(5, 2))`, "3.0"},
		{"getenv refuses", `ok, err := pcall(os.getenv); return err`, "bad argument #1 to 'getenv' (string expected, got no value)"},
		{"json decode", `return tostring(json.decode("[4]")[1])`, "4"},
		{"json parse shares decode's name", `ok, err := pcall(json.parse, {}); return tostring(err)`, "parse: bad argument #1 to 'decode' (string expected, got table)"},
		{"base64", `return base64.encode("hi")`, "aGk="},
		{"hmac two strings", `ok, err := pcall(hash.hmacSHA256, "k"); return err`, "bad argument #2 to 'hmacSHA256' (string expected, got no value)"},
		{"base32 keeps its message name", `ok, err := pcall(encoding.base32Encode, {}); return tostring(err)`, "base32Encode: bad argument #1 to 'encode' (string expected, got table)"},
		{"fmod of integers", `return tostring(math.fmod(7, 3))`, "1"},
		{"fmod refuses", `ok, err := pcall(math.fmod, 7, "x"); return err`, "bad argument #2 to 'fmod' (number expected, got string)"},
		{"atan's default", `return tostring(math.atan(0))`, "0.0"},
		{"ldexp refuses a fraction", `ok, err := pcall(math.ldexp, 1, 1.5); return err`, "bad argument #2 to 'ldexp' (number has no integer representation)"},
		{"modf", `i, f := math.modf(2.5); return tostring(f)`, "0.5"},
		{"url", `return url.pathEscape("a b")`, "a%20b"},
		{"path number converted", `return path.base(12)`, "12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := New(Options{})
			ch, err := in.Compile("unpacked.leia", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			rets, err := in.Run(context.Background(), ch)
			if err != nil {
				t.Fatal(err)
			}
			if len(rets) == 0 || rets[0].AsString() != tt.want {
				t.Errorf("got %v, want %q", rets[0].AsString(), tt.want)
			}
		})
	}
}
