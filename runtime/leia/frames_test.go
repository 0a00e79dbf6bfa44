package leia

import (
	"context"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/harnlang/harn-check/runtime/execution"
)

// stackAddr is the address of a local of its own frame: two calls at
// different call depths differ by the Go stack between them.
//
//go:noinline
func stackAddr() int64 {
	var x [1]byte
	return int64(uintptr(unsafe.Pointer(&x)))
}

// TestGoStackPerCall measures the Go stack one nested Leia call pushes,
// in the shape of the recursion benchmark (BENCHMARKS.md, "Deep
// recursion"), and logs it: a deep recursion's time and peak memory are
// mostly that stack. The stack is grown first and the collector is off,
// so that it is not moved or shrunk between the two readings. It asserts
// only that the measurement is plausible (positive, under 4 KB a call).
func TestGoStackPerCall(t *testing.T) {
	const depth = 2000
	cases := []struct{ name, src string }{
		{"return_call_plus_one", `func probe(n) { if n == 0 { return sp() }; return probe(n - 1) + 1 }
probe(3 * DEPTH)
top := sp()
return top - (probe(DEPTH) - DEPTH)`},
		{"return_call", `func probe(n) { if n == 0 { return sp() }; return probe(n - 1) }
probe(3 * DEPTH)
top := sp()
return top - probe(DEPTH)`},
		{"local_then_return", `func probe(n) { if n == 0 { return sp() }; r := probe(n - 1); return r }
probe(3 * DEPTH)
top := sp()
return top - probe(DEPTH)`},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := New(Options{Limits: execution.Limits{Depth: 100000}})
			in.Register("sp", func(th *Thread, _ []Value) ([]Value, error) { return th.Ret1(Int(stackAddr())), nil })
			in.SetGlobal("DEPTH", Int(depth))
			ch, err := in.Compile("probe.leia", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			rets, err := in.Run(context.Background(), ch)
			if err != nil {
				t.Fatal(err)
			}
			per := rets[0].AsInt() / depth
			t.Logf("%d bytes of Go stack per nested call", per)
			if per <= 0 || per > 4096 {
				t.Errorf("implausible: %d bytes per call", per)
			}
		})
	}
}
