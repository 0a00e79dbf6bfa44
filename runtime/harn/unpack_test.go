package harn

import (
	"strings"
	"testing"
)

// TestUnpackSpecsResolve: every builtin that unpacks its arguments from
// the table names an entry the table has, so a renamed or removed entry
// is found without calling the builtin.
func TestUnpackSpecsResolve(t *testing.T) {
	n := 0
	specNames.Range(func(k, _ any) bool {
		n++
		name := k.(string)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %v", name, r)
				}
			}()
			ArgsOf(name).params()
		}()
		return true
	})
	if n == 0 {
		t.Fatal("no builtin unpacks its arguments from the table")
	}
}

// TestUnpackByTable: converted builtins take and refuse what the table's
// parameter types say, with the runtime's messages.
func TestUnpackByTable(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"number", `println(sqrt(16))`, "4.0"},
		{"int as number", `println(atan2(0, 1))`, "0.0"},
		{"number refused", `println(unwrap_err(try { sqrt("16") }))`, "Type error: sqrt: expected a number, got string"},
		{"second number refused", `println(unwrap_err(try { atan2(1, nil) }))`, "Type error: atan2: expected a number, got nil"},
		{"missing required", `println(unwrap_err(try { sign() }))`, "Type error: sign: expected a number, got nil"},
		{"int kept", `println(floor(7))`, "7"},
		{"callable", `println(stream.collect(stream.map([1, 2], { x -> x * 10 })))`, "[10, 20]"},
		{"callable refused", `println(unwrap_err(try { stream.map([1], 3) }))`, "Type error: stream.map: argument 2 must be a function, got int"},
		{"source missing", `println(unwrap_err(try { stream.first() }))`, "Type error: stream.first: missing argument 1"},
		{"value then callable", `println(stream.fold([1, 2, 3], 10, { a, x -> a + x }))`, "16"},
		{"lenient text", `println(uppercase(12))`, "12"},
		{"lenient text nil", `println(trim(nil))`, "nil"},
		{"three texts", `println(replace("a-b-c", "-", "+"))`, "a+b+c"},
		{"lenient bytes", `println(hex_encode("hi"))`, "6869"},
		{"optional left out", `println(stream.collect([1, 2]))`, "[1, 2]"},
		{"rest", `println(path_join("a", "b", 3))`, "a/b/3"},
		{"rest empty", `println(path_join() == "")`, "true"},
		{"text adapter", `println(basename("/x/y.txt"))`, "y.txt"},
		{"text adapter parses", `println(json_parse("[1, 2]")[1])`, "2"},
		{"family wording, missing", `println(unwrap_err(try { flow_remediation() }))`, "flow_remediation: missing required string argument `description`"},
		{"family wording, wrong kind", `println(unwrap_err(try { flow_invariant_block("E1", 2) }))`, "flow_invariant_block: argument `message` must be a string, got int"},
		{"family wording, nil", `println(unwrap_err(try { flow_evidence_metadata("d", nil, "k") }))`, "flow_evidence_metadata: argument `namespace` must be a string, got nil"},
		{"table names in a family's own check", `println(unwrap_err(try { flow_evidence_transcript("t", 1, "x") }))`, "flow_evidence_transcript: argument `span_end` must be an int, got string"},
		{"family builtin works", `println(flow_evidence_citation("u", "q", "t").fetched_at)`, "t"},
		{"bytes adapter", `println(md5("abc"))`, "900150983cd24fb0d6963f7d28e17f72"},
		{"two byte strings", `println(bytes_to_string(bytes_concat(bytes_from_string("ab"), "cd")))`, "abcd"},
		{"bytes adapter error kept", `println(unwrap_err(try { bytes_to_string(bytes_from_hex("ff")) }))`, "bytes_to_string: invalid UTF-8"},
		{"text adapter error kept", `println(unwrap_err(try { json_parse("{") }).starts_with("JSON parse error: "))`, "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runSource(t, tt.src+"\n", runOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(out); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestUnpackRefusesMisfits: a destination that does not fit the table's
// parameter, or more destinations than parameters, is a programming
// error of the runtime, found at the first call.
func TestUnpackRefusesMisfits(t *testing.T) {
	tests := []struct {
		name string
		spec string
		dst  func() []any
	}{
		{"string into a number parameter", "sqrt", func() []any { var s string; return []any{&s} }},
		{"int into a number parameter", "sqrt", func() []any { var n int64; return []any{&n} }},
		{"number into a string parameter", "split", func() []any { var f float64; return []any{&f} }},
		{"rest into a plain parameter", "sqrt", func() []any { var r []Value; return []any{&r} }},
		{"more destinations than parameters", "sqrt", func() []any { var x, y float64; return []any{&x, &y} }},
		{"an unknown destination", "sqrt", func() []any { var b bool; return []any{&b} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil {
					t.Error("no panic")
				}
			}()
			_ = ArgsOf(tt.spec).Unpack(&Call{Name: tt.spec}, []Value{Int(1), Int(2)}, tt.dst()...)
		})
	}
}
