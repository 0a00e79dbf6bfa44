package rhai

import (
	"runtime"
	"strings"
	"testing"
)

// TestGrowthIsChargedBeforeAllocating: operations that build a string or
// an array from a large input check the limit on the size they are about
// to build, and fail without allocating it. The input is a 4 MB string
// handed in as an argument (as a validator's content is); every case must
// end with the named limit error and allocate far less than the data it
// refused to build (the 1.6 to 3.9 GB of issue #19 came from building
// first and checking after).
func TestGrowthIsChargedBeforeAllocating(t *testing.T) {
	content := strings.Repeat("abcdefghij", 400_000) // 4 MB
	lim := Limits{MaxOperations: 100_000, MaxStringSize: 8 << 20, MaxArraySize: 10_000, MaxMapSize: 10_000, MaxCallLevels: 64, MaxExprDepth: 128}
	for _, tc := range []struct {
		name, body, want string
	}{
		{"to_chars", "s.to_chars()", "Size of array too large"},
		{"chars", "s.chars()", "Size of array too large"},
		{"split into characters", `s.split("")`, "Size of array too large"},
		{"split on a common separator", `s.split("a")`, "Size of array too large"},
		{"split on whitespace", `(s.sub_string(0, 100000).replace("a", " ")); s.split()`, ""},
		{"concatenation", "s + s + s", "Length of string too large"},
		{"interpolation", "`${s}${s}${s}`", "Length of string too large"},
		{"replace that grows", `let t = s; t.replace("a", "aaaaaaaaaaaaaa"); t`, "Length of string too large"},
		{"array concatenation", "let a = []; a.pad(9000, 1); a + a", "Size of array too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, perr := Compile("fn f(s) { "+tc.body+" }", 128)
			if perr != nil {
				t.Fatal(perr)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := prog.Call("f", []Value{content}, lim)
			runtime.ReadMemStats(&after)
			if tc.want == "" {
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
				t.Errorf("allocated %d MB before failing", grown>>20)
			}
		})
	}
}

// TestOversizedArgumentAndResult: with the validator's limits a string
// argument over the string limit is refused before the script runs, and a
// returned string over it is an error too.
func TestOversizedArgumentAndResult(t *testing.T) {
	prog, perr := Compile("fn f(s) { s }", 128)
	if perr != nil {
		t.Fatal(perr)
	}
	big := strings.Repeat("x", DefaultLimits().MaxStringSize+1)
	if _, err := prog.Call("f", []Value{big}, DefaultLimits()); err == nil || !strings.Contains(err.Error(), "Length of string too large") {
		t.Errorf("oversized argument: %v", err)
	}
}
