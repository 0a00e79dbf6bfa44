package harn

import "testing"

// TestStoreMetadataIOJUnit covers the store, metadata, standard-stream
// mocks and JUnit families, including what each returns when nothing is
// there.
func TestStoreMetadataIOJUnit(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"the store keeps JSON values and survives a new read", `
store_set("a", {x: [1, 2]})
store_set("f", { -> 1 })
println(store_get("a").x[1])
println(store_get("f"))
println(store_list())
store_delete("a")
println(store_get("a"))
println(read_file(".harn/store.json"))
`, "2\nnil\n[a, f]\nnil\n{\n  \"f\": null\n}\n"},
		{"metadata children inherit their parents and override them", `
metadata_set("", "ns", {a: 1, b: 1})
metadata_set("x/y", "ns", {b: 2})
println(metadata_resolve("x/y/z", "ns"))
println(metadata_get("x", "ns"))
println(metadata_get("x", "other"))
println(len(metadata_entries("ns")))
println(metadata_status().stale.any_stale)
`, "{a: 1, b: 2}\n{a: 1, b: 1}\nnil\n2\nfalse\n"},
		{"a stored structure hash that differs is tier-1 stale", `
metadata_set("", "classification", {structureHash: "nope"})
println(metadata_stale(".").tier1)
metadata_refresh_hashes()
println(metadata_stale(".").any_stale)
`, "[.]\nfalse\n"},
		{"stdin mocks split lines; stderr capture collects eprint", `
mock_stdin("a\nb")
println(read_line() + read_line())
println(read_line())
capture_stderr_start()
eprintln("x")
println(capture_stderr_take() == "x\n")
println(unwrap_err(try { mock_tty("tty0", true) }))
`, "ab\nnil\ntrue\nmock_tty: invalid stream 'tty0'. Expected 'stdin', 'stdout', or 'stderr'.\n"},
		{"junit: failures carry message and text, entities unescaped, junk is empty", `
let r = parse_junit_xml("<testcase name=\"t\" time=\"1.5\"><failure message=\"a &amp; b\">x &lt; y</failure></testcase>")
println(r[0].status + " " + to_string(r[0].duration_ms) + " " + r[0].message)
println(len(parse_junit_xml("<testcase name=\"t\"")))
`, "failed 1500 a & b\nx < y\n0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}

// TestJQ pins the jq subset: paths, slices, iteration, select, objects,
// recursive descent and parse errors.
func TestJQ(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"paths, negative indexes and slices", `
let d = {a: [1, 2, 3, 4], b: {c: "x"}}
println(jq(d, ".a[-1], .a[1:-1], .b.c, .[\"b\"].c, .missing.deeper"))
`, "[4, [2, 3], x, x, nil]\n"},
		{"iteration, select and map", `
let d = {xs: [{n: 1}, {n: 5}, {n: 9}]}
println(jq(d, ".xs[] | select(.n > 2 and .n < 9) | .n"))
println(jq_first(d, ".xs | map(.n)"))
println(jq(d, ".xs[] | select(not (.n == 5)) | .n"))
`, "[5]\n[1, 5, 9]\n[1, 9]\n"},
		{"objects, literals, type and recursion", `
println(jq_first({a: 1}, "{x: .a, y: \"s\", z: 1.5}"))
println(jq({a: [true]}, ".. | type"))
println(jq_first([], ".[0]"))
`, "{x: 1, y: s, z: 1.5}\n[object, array, boolean]\nnil\n"},
		{"a filter that does not parse throws", `
println(unwrap_err(try { jq({}, ".a |") }))
println(unwrap_err(try { jq({}, "frobnicate") }))
`, "jq: expected expression near ''\njq: unknown identifier 'frobnicate'\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}
