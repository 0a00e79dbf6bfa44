package harn

import (
	"context"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"

	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// stackAddr is the address of a local of its own frame: two calls at
// different call depths differ by the Go stack between them.
//
//go:noinline
func stackAddr() int64 {
	var x [1]byte
	return int64(uintptr(unsafe.Pointer(&x)))
}

// TestGoStackPerCall measures the Go stack one nested Harn call pushes,
// in the shape of the recursion benchmark (BENCHMARKS.md, "Deep
// recursion"), and logs it: a deep recursion's time and peak memory are
// mostly that stack. The stack is grown first and the collector is off,
// so that it is not moved or shrunk between the two readings. It asserts
// only that the measurement is plausible (positive, under 4 KB a call).
func TestGoStackPerCall(t *testing.T) {
	const depth = 2000
	cases := []struct{ name, body string }{
		{"return_call_plus_one", `  if n == 0 {
    return test_stack_addr()
  }
  return probe(n - 1) + 1`},
		{"local_then_return", `  if n == 0 {
    return test_stack_addr()
  }
  let r = probe(n - 1)
  return r - 1`},
	}
	// A library of this test's own: the table test wants every builtin
	// of the runtime declared for the checker.
	probe := Family{Name: "stack probe", Install: func(lib *Library) {
		lib.Builtin("test_stack_addr", func(*Call, []Value) (Value, error) { return Int(stackAddr()), nil })
	}}
	lib, err := NewLibrary(append(AllFamilies(), probe))
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "fn probe(n) {\n" + c.body + "\n}\n\nfn main() {\n  probe(3 * DEPTH)\n  let top = test_stack_addr()\n  return top - (probe(DEPTH) - DEPTH)\n}\n"
			src = strings.ReplaceAll(src, "DEPTH", "2000")
			h, err := host.New(host.Config{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			in, err := New(Options{Host: h, Library: lib, Limits: execution.Limits{Depth: 100000}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := in.Run(context.Background(), "probe.harn", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			per := res.Value.AsInt() / depth
			t.Logf("%d bytes of Go stack per nested call", per)
			if per <= 0 || per > 4096 {
				t.Errorf("implausible: %d bytes per call", per)
			}
		})
	}
}
