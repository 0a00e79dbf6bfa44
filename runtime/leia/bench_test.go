package leia

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/harnlang/harn-check/internal/benchprog"
)

// The comparison benchmarks run the same algorithm as a Leia program on
// this interpreter and as a Lua program on github.com/yuin/gopher-lua, in
// one process and one run, so their ratio is meaningful (BENCHMARKS.md).
// Each program returns a checksum that both sides must agree on. A
// program too slow for every test run has a quick variant (the same
// program on smaller inputs) that TestComparisonChecksums runs instead.
type comparison struct {
	name      string
	leia, lua string
	want      int64
	quick     *comparison
}

var comparisons = []comparison{
	{"fib", `func fib(n) { if n < 2 { return n }; return fib(n - 1) + fib(n - 2) }
return fib(25)`, `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
return fib(25)`, 75025, nil},
	{"loops", `s := 0
for i := 1; i <= 300000; i++ {
    if i % 3 == 0 { s = s + i } else { s = s - 1 }
}
n := 0
for n < 100000 { n++ }
return s + n`, `local s = 0
for i = 1, 300000 do
    if i % 3 == 0 then s = s + i else s = s - 1 end
end
local n = 0
while n < 100000 do n = n + 1 end
return s + n`, 15000050000, nil},
	{"string_build", `s := ""
for i := 1; i <= 2000; i++ { s = s .. "x" }
parts := {}
for i := 1; i <= 20000; i++ { parts[#parts + 1] = tostring(i) }
joined := table.concat(parts, ",")
return #s + #joined`, `local s = ""
for i = 1, 2000 do s = s .. "x" end
local parts = {}
for i = 1, 20000 do parts[#parts + 1] = tostring(i) end
local joined = table.concat(parts, ",")
return #s + #joined`, 110893, nil},
	{"table_churn", `total := 0
for r := 1; r <= 200; r++ {
    t := {}
    for i := 1; i <= 200; i++ { t[i] = i }
    for i := 1; i <= 200; i++ { t["k" .. (i % 20)] = i }
    for i := 200; i >= 1; i-- { total = total + t[i]; t[i] = nil }
}
return total`, `local total = 0
for r = 1, 200 do
    local t = {}
    for i = 1, 200 do t[i] = i end
    for i = 1, 200 do t["k" .. (i % 20)] = i end
    for i = 200, 1, -1 do total = total + t[i]; t[i] = nil end
end
return total`, 200 * 20100, nil},
	{"closures", `func make(k) { return func(x) { return x + k } }
total := 0
for i := 1; i <= 100000; i++ {
    f := make(i)
    total = total + f(1)
}
count := 0
inc := func() { count = count + 1 }
for i := 1; i <= 200000; i++ { inc() }
return total + count`, `local function make(k) return function(x) return x + k end end
local total = 0
for i = 1, 100000 do
    local f = make(i)
    total = total + f(1)
end
local count = 0
local inc = function() count = count + 1 end
for i = 1, 200000 do inc() end
return total + count`, 5000050000 + 100000 + 200000, nil},
	{"method_calls", `Point := {}
Point.__index = Point
Point.new = func(x, y) { return setmetatable({x: x, y: y}, Point) }
Point.move = func(self, dx) { self.x = self.x + dx; return self }
Point.sum = func(self) { return self.x + self.y }
p := Point.new(0, 1)
total := 0
for i := 1; i <= 200000; i++ {
    p:move(1)
    total = total + p:sum()
}
return total`, `local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point.move(self, dx) self.x = self.x + dx return self end
function Point.sum(self) return self.x + self.y end
local p = Point.new(0, 1)
local total = 0
for i = 1, 200000 do
    p:move(1)
    total = total + p:sum()
end
return total`, 20000100000 + 200000, nil},
	withQuick(sortComparison(1000000, 200000, 3222136579), sortComparison(10000, 2000, 3233107476)),
	withQuick(recursionComparison(9000, 250), recursionComparison(9000, 5)),
	withQuick(recursionComparison(100000, 20), recursionComparison(20000, 1)),
}

// sortComparison and recursionComparison are the workloads of
// internal/benchprog (shared with the Harn and whole-process suites).
func sortComparison(n, m int, want int64) comparison {
	return comparison{name: "sort", want: want,
		leia: benchprog.Sort(benchprog.Leia, n, m, false), lua: benchprog.Sort(benchprog.Lua, n, m, false)}
}

func recursionComparison(depth, rounds int) comparison {
	return comparison{name: fmt.Sprintf("recursion_%d", depth), want: int64(depth) * int64(rounds),
		leia: benchprog.Recursion(benchprog.Leia, depth, rounds, false), lua: benchprog.Recursion(benchprog.Lua, depth, rounds, false)}
}

func withQuick(c, quick comparison) comparison {
	c.quick = &quick
	return c
}

func BenchmarkCompare(b *testing.B) {
	for _, c := range comparisons {
		b.Run(c.name+"/leia", func(b *testing.B) {
			in := New(Options{Stdout: io.Discard})
			chunk, err := in.Compile(c.name+".leia", []byte(c.leia))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := in.Call(context.Background(), closureValue(&Closure{proto: chunk.main}))
				if err != nil {
					b.Fatal(err)
				}
				if n, _ := toInteger(r[0]); n != c.want {
					b.Fatalf("checksum %v, want %d", r[0], c.want)
				}
			}
		})
		b.Run(c.name+"/gopherlua", func(b *testing.B) {
			L := newLuaState()
			defer L.Close()
			fn, err := L.LoadString(c.lua)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				L.Push(fn)
				if err := L.PCall(0, 1, nil); err != nil {
					b.Fatal(err)
				}
				v := L.Get(-1)
				L.Pop(1)
				if n, ok := v.(lua.LNumber); !ok || int64(n) != c.want {
					b.Fatalf("gopher-lua checksum %v, want %d", v, c.want)
				}
			}
		})
	}
}

// TestComparisonChecksums keeps the benchmark programs honest in the
// normal test run: both interpreters compute the documented checksum.
func TestComparisonChecksums(t *testing.T) {
	for _, c := range comparisons {
		if c.quick != nil {
			c = *c.quick
		}
		in := New(Options{Stdout: io.Discard})
		chunk, err := in.Compile(c.name+".leia", []byte(c.leia))
		if err != nil {
			t.Fatal(err)
		}
		r, err := in.Run(context.Background(), chunk)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n, _ := toInteger(r[0]); n != c.want {
			t.Errorf("%s: leia checksum %v, want %d", c.name, r[0], c.want)
		}
		L := newLuaState()
		if err := L.DoString(c.lua); err != nil {
			t.Fatalf("%s (lua): %v", c.name, err)
		}
		if n, ok := L.Get(-1).(lua.LNumber); !ok || int64(n) != c.want {
			t.Errorf("%s: gopher-lua checksum %v, want %d", c.name, L.Get(-1), c.want)
		}
		L.Close()
	}
}

// newLuaState gives gopher-lua a registry large enough for the programs
// (table.concat of 20,000 strings overflows its default) and a call
// stack deep enough for the recursion programs.
func newLuaState() *lua.LState {
	return lua.NewState(lua.Options{RegistrySize: 256 * 1024, RegistryMaxSize: 4 * 1024 * 1024, CallStackSize: 200000})
}

// TestCompareRatios prints the Leia/gopher-lua time ratio of each
// comparison program, alternating the two sides round by round so both
// see the same machine load (the table in BENCHMARKS.md): the median
// times, the median of the per-round ratios and the ratio of the best
// times. It runs only with LEIA_BENCH_COMPARE=1 (one program:
// -run TestCompareRatios/sort) and asserts nothing about speed.
func TestCompareRatios(t *testing.T) {
	if os.Getenv("LEIA_BENCH_COMPARE") != "1" {
		t.Skip("set LEIA_BENCH_COMPARE=1 to measure the ratios against gopher-lua")
	}
	const rounds = 9
	t.Log("| program | Leia median ms | gopher-lua median ms | ratio (median) | ratio (best) |")
	for _, c := range comparisons {
		t.Run(c.name, func(t *testing.T) {
			in := New(Options{Stdout: io.Discard})
			chunk, err := in.Compile(c.name+".leia", []byte(c.leia))
			if err != nil {
				t.Fatal(err)
			}
			L := newLuaState()
			defer L.Close()
			fn, err := L.LoadString(c.lua)
			if err != nil {
				t.Fatal(err)
			}
			runLeia := func() time.Duration {
				start := time.Now()
				if _, err := in.Call(context.Background(), closureValue(&Closure{proto: chunk.main})); err != nil {
					t.Fatal(err)
				}
				return time.Since(start)
			}
			runLua := func() time.Duration {
				start := time.Now()
				L.Push(fn)
				if err := L.PCall(0, 1, nil); err != nil {
					t.Fatal(err)
				}
				L.Pop(1)
				return time.Since(start)
			}
			runLeia()
			runLua()
			var as, bs, ratios []float64
			for r := 0; r < rounds; r++ {
				var a, b time.Duration
				if r%2 == 0 {
					a = runLeia()
					b = runLua()
				} else {
					b = runLua()
					a = runLeia()
				}
				as = append(as, float64(a.Microseconds())/1000)
				bs = append(bs, float64(b.Microseconds())/1000)
				ratios = append(ratios, float64(a)/float64(b))
			}
			sort.Float64s(as)
			sort.Float64s(bs)
			sort.Float64s(ratios)
			t.Logf("| %s | %.1f | %.1f | %.2f | %.2f |", c.name, as[rounds/2], bs[rounds/2], ratios[rounds/2], as[0]/bs[0])
		})
	}
}
