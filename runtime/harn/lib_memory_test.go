package harn

import "testing"

// TestMemory pins recall ranking and filtering, summaries, tombstones
// and the namespace guard of std/memory.
func TestMemory(t *testing.T) {
	src := `
import "std/memory"
let o = {root: "mem", now: "2026-01-01T00:00:00Z"}
memory_store("ns", "a", "apples and pears", ["fruit"], o)
memory_store("ns", "b", {note: "pears only"}, "fruit", {root: "mem", now: "2026-01-02T00:00:00Z"})
memory_store("ns", "c", "cars", nil, o)
println(memory_recall("ns", "pears", 5, o).map({ r -> r.key }))
println(memory_recall("ns", "zebra", 5, o))
println(memory_summarize("ns", {tag: "fruit", limit: 1}, o).text)
println(memory_forget("ns", {tag: "fruit"}, o).forgotten)
println(memory_recall("ns", "pears", 5, o))
println(memory_summarize("ns", nil, o).count)
println(unwrap_err(try { memory_store("../x", "k", 1, nil, o) }))
`
	want := "[b, a]\n[]\n- [fruit] b: {\"note\":\"pears only\"}\n\n2\n[]\n1\nmemory namespace must not escape the memory root\n"
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Fatalf("got\n%q\nwant\n%q", out, want)
	}
}
